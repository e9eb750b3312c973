//! Filling the model: sizes (`SetSizes`), names and paths (`CopyNames`, `CopyPaths`), the
//! kinematic tree (`CopyTree`) and everything else (`CopyObjects`).

use mjrs_alloc::OwnedModel;
use mjrs_core::model::Model;
use mjrs_core::name::{hash_string, LOAD_MULTIPLE};
use mjrs_core::types::*;
use mjrs_core::ModelSizes;

use super::{npos_nvel, Compiler};
use crate::error::XmlError;
use crate::limits;
use crate::reader::tinyxml::raw_bytes;
use crate::util::{c_max, mju_max, strippath, EPS};

/// The name lists of the model, in `names` order, with their `name_*adr` field.
type NameList = (Vec<String>, for<'m> fn(&'m mut Model<'_>) -> &'m mut [i32]);

fn set3<T: Copy>(dst: &mut [T], i: usize, v: &[T]) {
    let n = v.len();
    dst[n * i..n * i + n].copy_from_slice(v);
}

/// Refuses keyframes whose state arrays (`key_time`, `key_qpos`, ... `key_ctrl`) cannot be held:
/// `<size nkey>` multiplies the model's state size.
fn check_key_sizes(z: &ModelSizes) -> Result<(), String> {
    const WHAT: &str = "keyframes (<size nkey>)";
    // the counts are of objects the model holds: their sum saturates only past any limit
    let per_key = [1, z.nq, z.nv, z.na, z.nmocap.saturating_mul(7), z.nu]
        .into_iter()
        .fold(0usize, usize::saturating_add);
    limits::check(
        limits::count(z.nkey, per_key, WHAT)?,
        size_of::<f64>(),
        WHAT,
    )?;
    Ok(())
}

/// `IsNullPose`.
fn null_pose(pos: Option<&[f64]>, quat: Option<&[f64]>) -> bool {
    pos.is_none_or(|p| p.iter().all(|&x| x == 0.0))
        && quat.is_none_or(|q| q[0] == 1.0 && q[1] == 0.0 && q[2] == 0.0 && q[3] == 0.0)
}

impl Compiler<'_> {
    /// The sizes of the model (`SetSizes` and the counts `CopyTree` derives).
    fn sizes(&self) -> Result<ModelSizes, XmlError> {
        let s = &self.spec;
        let o = &self.objects;
        let mut z = ModelSizes {
            nbody: self.bodies.len(),
            njnt: self.joints.len(),
            ngeom: self.geoms.len(),
            nsite: self.sites.len(),
            ncam: self.cameras.len(),
            nlight: self.lights.len(),
            nmesh: self.meshes.len(),
            nskin: self.skins.len(),
            nhfield: self.hfields.len(),
            ntex: self.textures.len(),
            nmat: s.materials.len(),
            npair: o.pairs.len(),
            nexclude: o.excludes.len(),
            neq: o.equalities.len(),
            ntendon: o.tendons.len(),
            nsensor: o.sensors.len(),
            nnumeric: s.numerics.len(),
            ntext: s.texts.len(),
            ntuple: o.tuples.len(),
            nkey: s.keys.len(),
            ..ModelSizes::default()
        };
        for j in &self.joints {
            let (q, v) = npos_nvel(j.s.jtype);
            z.nq += q;
            z.nv += v;
        }
        z.nu = o.actuators.len();
        z.na = (0..o.actuators.len()).map(|u| self.actnum(u)).sum();
        z.nplugin = s.plugins.len();
        (z.npluginstate, z.npluginattr) = self.plugin_sizes();
        z.nbvhstatic = self.bodies.iter().map(|b| b.tree.len()).sum::<usize>()
            + self
                .meshes
                .iter()
                .flatten()
                .map(|m| m.bvh.len())
                .sum::<usize>();
        z.nbvhdynamic = self.flexes.iter().map(|f| f.tree.len()).sum();
        z.nbvh = z.nbvhstatic + z.nbvhdynamic;
        z.nflex = self.flexes.len();
        for f in &self.flexes {
            z.nflexvert += f.nvert;
            z.nflexedge += f.edge.len();
            z.nflexelem += f.elem.len() / (f.dim + 1);
            z.nflexelemdata += f.elem.len();
            z.nflexshelldata += f.shell.len();
            z.nflexevpair += f.evpair.len() / 2;
        }
        for m in self.meshes.iter().flatten() {
            z.nmeshvert += m.vert.len() / 3;
            z.nmeshnormal += m.normal.len() / 3;
            z.nmeshface += m.face.len() / 3;
            z.nmeshtexcoord += if m.has_texcoord() {
                m.texcoord.len() / 2
            } else {
                0
            };
            z.nmeshgraph += m.graph.len();
        }
        for k in &self.skins {
            z.nskinvert += k.vert.len() / 3;
            z.nskintexvert += k.texcoord.len() / 2;
            z.nskinface += k.face.len() / 3;
            z.nskinbone += k.bodyid.len();
            z.nskinbonevert += k.vertid.iter().map(Vec::len).sum::<usize>();
        }
        z.nhfielddata = self.hfields.iter().map(|h| h.data.len()).sum();
        z.ntexdata = self.textures.iter().map(|t| t.rgb.len()).sum();
        z.nwrap = o.tendons.iter().map(|t| t.path.len()).sum();
        z.nsensordata = o.sensors.iter().map(|x| x.s.dim.max(0) as usize).sum();
        z.nnumericdata = s.numerics.iter().map(|n| n.size.max(0) as usize).sum();
        z.ntextdata = s.texts.iter().map(|t| raw_bytes(&t.data).len() + 1).sum();
        z.ntupledata = o.tuples.iter().map(|t| t.objtype.len()).sum();
        z.nmocap = self.bodies.iter().filter(|b| b.mocap).count();
        z.nuser_body = self.nuser.body;
        z.nuser_jnt = self.nuser.jnt;
        z.nuser_geom = self.nuser.geom;
        z.nuser_site = self.nuser.site;
        z.nuser_cam = self.nuser.cam;
        z.nuser_tendon = self.nuser.tendon;
        z.nuser_actuator = self.nuser.actuator;
        z.nuser_sensor = self.nuser.sensor;
        z.nnames = self
            .name_lists()
            .iter()
            .map(|(l, _)| l.iter().map(|n| raw_bytes(n).len() + 1).sum::<usize>())
            .sum::<usize>()
            + raw_bytes(&s.modelname).len()
            + 1;
        z.nnames_map = LOAD_MULTIPLE
            * self
                .name_lists()
                .iter()
                .map(|(l, _)| l.len())
                .sum::<usize>();
        z.npaths = self
            .path_lists()
            .iter()
            .flatten()
            .filter(|p| !p.is_empty())
            .map(|p| p.len() + 1)
            .sum::<usize>()
            .max(1);
        z.nemax = o
            .equalities
            .iter()
            .map(|q| match q.etype {
                EQ_CONNECT => 3,
                EQ_WELD => 7,
                _ => 1,
            })
            .sum();
        z.njmax = s.njmax;
        z.nconmax = s.nconmax;
        z.nuserdata =
            usize::try_from(s.nuserdata).map_err(|_| XmlError::model("nuserdata must be >= 0"))?;
        // mjData's userdata is zeroed when the data is made: it must fit in one buffer
        let what = "mjData userdata (<size nuserdata>)";
        limits::check(z.nuserdata, size_of::<f64>(), what).map_err(XmlError::model)?;
        self.tree_sizes(&mut z);
        check_key_sizes(&z).map_err(XmlError::model)?;
        z.narena = self.arena_bytes(&z);
        z.nbuffer = mjrs_core::mjb::mujoco_nbuffer(&z, 8)
            .ok_or_else(|| XmlError::model("could not create mjModel"))?;
        Ok(z)
    }

    /// `nM`, `nD`, `nB`, `ntree` and `ngravcomp` from the dof tree (`CopyTree`).
    fn tree_sizes(&self, z: &mut ModelSizes) {
        let parent = self.dof_parents();
        z.nM = (0..parent.len())
            .map(|i| {
                let (mut n, mut j) = (0, i as i32);
                while j >= 0 {
                    n += 1;
                    j = parent[j as usize];
                }
                n
            })
            .sum();
        z.nD = 2 * z.nM - z.nv;
        z.ntree = parent.iter().filter(|&&p| p == -1).count();
        z.ngravcomp = self.bodies.iter().filter(|b| b.gravcomp > 0.0).count();
        let mut subtree = vec![0usize; self.bodies.len()];
        for i in (1..self.bodies.len()).rev() {
            subtree[i] += self.bodies[i].dofnum;
            subtree[self.bodies[i].parentid] += subtree[i];
        }
        z.nB = (0..self.bodies.len())
            .map(|i| {
                let mut n = subtree[i];
                let mut j = self.bodies[i].parentid;
                while j > 0 {
                    n += self.bodies[j].dofnum;
                    j = self.bodies[j].parentid;
                }
                n
            })
            .sum();
    }

    /// `dof_parentid` of every dof: the previous dof of the body, or the last dof of the
    /// nearest ancestor with dofs.
    pub(super) fn dof_parents(&self) -> Vec<i32> {
        let mut lastdof = vec![-1i32; self.bodies.len()];
        let mut parent = Vec::new();
        for (i, b) in self.bodies.iter().enumerate() {
            let mut last = if i == 0 { -1 } else { lastdof[b.parentid] };
            for &j in &b.joints {
                for _ in 0..npos_nvel(self.joints[j].s.jtype).1 {
                    parent.push(last);
                    last = parent.len() as i32 - 1;
                }
            }
            lastdof[i] = last;
        }
        parent
    }

    /// Bytes of the data arena (`narena`): `size/memory`, or MuJoCo's heuristic rounded up
    /// to a megabyte.
    fn arena_bytes(&self, z: &ModelSizes) -> usize {
        let s = &self.spec;
        if s.memory != -1 {
            return s.memory as usize;
        }
        let nconmax: usize = if z.nconmax == -1 {
            100
        } else {
            z.nconmax as usize
        };
        let njmax: usize = if z.njmax == -1 { 500 } else { z.njmax as usize };
        let num = core::mem::size_of::<f64>();
        let mut narena = if s.nstack != -1 {
            num.wrapping_mul(s.nstack as usize)
        } else {
            num.wrapping_mul(stack_heuristic(z, njmax))
        };
        let int = core::mem::size_of::<i32>();
        let contact = core::mem::size_of::<mjrs_core::data::Contact>();
        narena = narena
            .wrapping_add(nconmax.wrapping_mul(contact))
            .wrapping_add(njmax.wrapping_mul(8 * int + 14 * num))
            .wrapping_add(z.nv.wrapping_mul(3 * int))
            .wrapping_add(int_product(njmax, z.nv).wrapping_mul(2 * int + 2 * num))
            .wrapping_add(int_product(njmax, njmax).wrapping_mul(int + num));
        const MB: usize = 1 << 20;
        MB.wrapping_mul(narena / MB + usize::from(narena % MB != 0))
    }

    /// Every named list in `names` order.
    fn name_lists(&self) -> Vec<NameList> {
        let s = &self.spec;
        let o = &self.objects;
        vec![
            (self.bodies.iter().map(|b| b.name.clone()).collect(), |m| {
                &mut *m.name_bodyadr
            }),
            (
                self.joints.iter().map(|j| j.s.name.clone()).collect(),
                |m| &mut *m.name_jntadr,
            ),
            (self.geoms.iter().map(|g| g.s.name.clone()).collect(), |m| {
                &mut *m.name_geomadr
            }),
            (self.sites.iter().map(|x| x.s.name.clone()).collect(), |m| {
                &mut *m.name_siteadr
            }),
            (
                self.cameras.iter().map(|x| x.s.name.clone()).collect(),
                |m| &mut *m.name_camadr,
            ),
            (
                self.lights.iter().map(|x| x.s.name.clone()).collect(),
                |m| &mut *m.name_lightadr,
            ),
            (s.flexes.iter().map(|x| x.name.clone()).collect(), |m| {
                &mut *m.name_flexadr
            }),
            (s.meshes.iter().map(|x| x.name.clone()).collect(), |m| {
                &mut *m.name_meshadr
            }),
            (s.skins.iter().map(|x| x.name.clone()).collect(), |m| {
                &mut *m.name_skinadr
            }),
            (s.hfields.iter().map(|x| x.name.clone()).collect(), |m| {
                &mut *m.name_hfieldadr
            }),
            (s.textures.iter().map(|x| x.name.clone()).collect(), |m| {
                &mut *m.name_texadr
            }),
            (s.materials.iter().map(|x| x.name.clone()).collect(), |m| {
                &mut *m.name_matadr
            }),
            (o.pairs.iter().map(|x| x.name.clone()).collect(), |m| {
                &mut *m.name_pairadr
            }),
            (o.excludes.iter().map(|x| x.name.clone()).collect(), |m| {
                &mut *m.name_excludeadr
            }),
            (o.equalities.iter().map(|x| x.name.clone()).collect(), |m| {
                &mut *m.name_eqadr
            }),
            (o.tendons.iter().map(|x| x.s.name.clone()).collect(), |m| {
                &mut *m.name_tendonadr
            }),
            (
                o.actuators.iter().map(|x| x.s.name.clone()).collect(),
                |m| &mut *m.name_actuatoradr,
            ),
            (o.sensors.iter().map(|x| x.s.name.clone()).collect(), |m| {
                &mut *m.name_sensoradr
            }),
            (s.numerics.iter().map(|x| x.name.clone()).collect(), |m| {
                &mut *m.name_numericadr
            }),
            (s.texts.iter().map(|x| x.name.clone()).collect(), |m| {
                &mut *m.name_textadr
            }),
            (o.tuples.iter().map(|x| x.name.clone()).collect(), |m| {
                &mut *m.name_tupleadr
            }),
            (s.keys.iter().map(|x| x.name.clone()).collect(), |m| {
                &mut *m.name_keyadr
            }),
            (s.plugins.iter().map(|x| x.name.clone()).collect(), |m| {
                &mut *m.name_pluginadr
            }),
        ]
    }

    /// Asset file names in `paths` order: height fields, meshes, skins, textures.
    fn path_lists(&self) -> [Vec<String>; 4] {
        let s = &self.spec;
        let f = |p: &str| {
            if s.strippath {
                strippath(p).to_string()
            } else {
                p.to_string()
            }
        };
        [
            s.hfields.iter().map(|x| f(&x.file)).collect(),
            s.meshes.iter().map(|x| f(&x.file)).collect(),
            s.skins.iter().map(|x| f(&x.file)).collect(),
            s.textures.iter().map(|x| f(&x.file)).collect(),
        ]
    }

    /// Makes the model and copies everything into it (`mj_makeModel` ... `CopyObjects`).
    /// Plugins are asked about a first model (their state lengths, sensor dimensions and
    /// activation variables), as MuJoCo asks them after `mj_makeModel`; the model is then made
    /// again with the sizes they gave.
    pub(super) fn make_model(&mut self) -> Result<OwnedModel, XmlError> {
        if !self.spec.plugins.is_empty() {
            let mut first = self.make_model_once(false)?;
            self.query_plugins(&first.view())?;
        }
        self.make_model_once(true)
    }

    /// Number of activation variables of actuator `u`: its dynamics' and its plugin's.
    fn actnum(&self, u: usize) -> usize {
        self.objects.actuators[u].s.actdim.max(0) as usize + self.plugin_actdim(u)
    }

    /// One model; keyframes are compiled only in the final one (`with_keys`), since their
    /// activations depend on the plugins' answers.
    fn make_model_once(&mut self, with_keys: bool) -> Result<OwnedModel, XmlError> {
        let sizes = self.sizes()?;
        let mut owned =
            OwnedModel::zeroed(sizes).map_err(|e| super::finish::no_memory("mjModel", e))?;
        {
            let mut m = owned.view();
            m.opt = self.spec.option;
            m.vis = self.spec.visual;
            self.copy_names(&mut m);
            self.copy_paths(&mut m);
            self.copy_tree(&mut m)?;
            self.copy_plugins(&mut m);
            if with_keys {
                self.compile_keys(&m)?;
            }
            self.copy_objects(&mut m);
        }
        Ok(owned)
    }

    /// `CopyNames`: the model name, then every list's names, and the hash map per list.
    fn copy_names(&self, m: &mut Model) {
        let mut names: Vec<u8> = Vec::with_capacity(m.names.len());
        // names hold the bytes of the XML, as MuJoCo's do, whatever their encoding
        names.extend_from_slice(&raw_bytes(&self.spec.modelname));
        names.push(0);
        m.names_map.fill(-1);
        let mut map_adr = 0;
        for (list, field) in self.name_lists() {
            let map_size = LOAD_MULTIPLE * list.len();
            for (i, n) in list.iter().enumerate() {
                if n.is_empty() {
                    continue;
                }
                let mut j = hash_string(&raw_bytes(n), map_size as u64) as usize;
                while m.names_map[map_adr + j] != -1 {
                    j = (j + 1) % map_size;
                }
                m.names_map[map_adr + j] = i as i32;
            }
            map_adr += map_size;
            let adrs = field(m);
            for (i, n) in list.iter().enumerate() {
                adrs[i] = names.len() as i32;
                names.extend_from_slice(&raw_bytes(n));
                names.push(0);
            }
        }
        m.names[..names.len()].copy_from_slice(&names);
    }

    /// `CopyPaths`.
    fn copy_paths(&self, m: &mut Model) {
        let mut paths: Vec<u8> = Vec::new();
        let lists = self.path_lists();
        let fields: [for<'m> fn(&'m mut Model<'_>) -> &'m mut [i32]; 4] = [
            |m| &mut *m.hfield_pathadr,
            |m| &mut *m.mesh_pathadr,
            |m| &mut *m.skin_pathadr,
            |m| &mut *m.tex_pathadr,
        ];
        for (list, field) in lists.iter().zip(fields) {
            let adrs = field(m);
            for (i, p) in list.iter().enumerate() {
                adrs[i] = -1;
                if !p.is_empty() {
                    adrs[i] = paths.len() as i32;
                    paths.extend_from_slice(p.as_bytes());
                    paths.push(0);
                }
            }
        }
        m.paths[..paths.len()].copy_from_slice(&paths);
    }

    /// `CopyTree`: bodies, joints, dofs, geoms, sites, cameras, lights, body hierarchies.
    fn copy_tree(&self, m: &mut Model) -> Result<(), XmlError> {
        let (mut jntadr, mut dofadr, mut qposadr, mut bvhadr) = (0usize, 0usize, 0usize, 0usize);
        let mut lastdof = vec![-1i32; self.bodies.len()];
        for (i, pb) in self.bodies.iter().enumerate() {
            m.body_parentid[i] = pb.parentid as i32;
            m.body_weldid[i] = pb.weldid as i32;
            m.body_mocapid[i] = pb.mocapid;
            m.body_jntnum[i] = pb.joints.len() as i32;
            m.body_jntadr[i] = if pb.joints.is_empty() {
                -1
            } else {
                jntadr as i32
            };
            m.body_dofnum[i] = pb.dofnum as i32;
            m.body_dofadr[i] = if pb.dofnum > 0 { dofadr as i32 } else { -1 };
            m.body_geomnum[i] = pb.geoms.len() as i32;
            m.body_geomadr[i] = pb.geoms.first().map_or(-1, |&g| g as i32);
            set3(&mut m.body_pos, i, &pb.pos);
            set3(&mut m.body_quat, i, &pb.quat);
            set3(&mut m.body_ipos, i, &pb.ipos);
            set3(&mut m.body_iquat, i, &pb.iquat);
            m.body_mass[i] = pb.mass;
            set3(&mut m.body_inertia, i, &pb.inertia);
            m.body_gravcomp[i] = pb.gravcomp;
            set3(&mut m.body_user, i, &pb.userdata);
            m.body_contype[i] = pb.contype;
            m.body_conaffinity[i] = pb.conaffinity;
            m.body_margin[i] = pb.margin;
            let nbvh = pb.tree.len();
            m.body_bvhadr[i] = if nbvh > 0 { bvhadr as i32 } else { -1 };
            m.body_bvhnum[i] = nbvh as i32;
            m.bvh_aabb[6 * bvhadr..6 * (bvhadr + nbvh)].copy_from_slice(&pb.tree.aabb);
            m.bvh_child[2 * bvhadr..2 * (bvhadr + nbvh)].copy_from_slice(&pb.tree.child);
            m.bvh_depth[bvhadr..bvhadr + nbvh].copy_from_slice(&pb.tree.level);
            for (k, &n) in pb.tree.nodeid.iter().enumerate() {
                m.bvh_nodeid[bvhadr + k] = if n >= 0 {
                    pb.geoms[n as usize] as i32
                } else {
                    -1
                };
            }
            bvhadr += nbvh;

            let cntfree = pb
                .joints
                .iter()
                .filter(|&&j| self.joints[j].s.jtype == JNT_FREE)
                .count();
            if cntfree > 1 || (cntfree == 1 && pb.joints.len() > 1) {
                return Err(XmlError::compile(
                    "free joint can only appear by itself",
                    &pb.name,
                    i,
                    &pb.info,
                ));
            }
            if cntfree > 0 && pb.parentid != 0 {
                return Err(XmlError::compile(
                    "free joint can only be used on top level",
                    &pb.name,
                    i,
                    &pb.info,
                ));
            }
            m.body_rootid[i] = if i == 0 || pb.parentid == 0 {
                i as i32
            } else {
                m.body_rootid[pb.parentid]
            };
            let mut last = if i == 0 { -1 } else { lastdof[pb.parentid] };
            m.body_sameframe[i] = u8::from(null_pose(Some(&pb.ipos), Some(&pb.iquat)));
            let j = pb.parentid;
            m.body_simple[i] = u8::from(
                m.body_sameframe[i] != 0
                    && (m.body_rootid[i] == i as i32
                        || (m.body_parentid[j] == 0 && m.body_dofnum[j] == 0)),
            );
            if m.body_parentid[i] > 0 {
                m.body_simple[pb.parentid] = 0;
            }
            let mut rotfound = false;
            for &jid in &pb.joints {
                let pj = &self.joints[jid].s;
                m.jnt_type[jid] = pj.jtype;
                m.jnt_group[jid] = pj.group;
                m.jnt_limited[jid] = u8::from(pj.limited.is_limited(&pj.range));
                m.jnt_actfrclimited[jid] = u8::from(pj.actfrclimited.is_limited(&pj.actfrcrange));
                m.jnt_actgravcomp[jid] = u8::from(pj.actgravcomp);
                m.jnt_qposadr[jid] = qposadr as i32;
                m.jnt_dofadr[jid] = dofadr as i32;
                m.jnt_bodyid[jid] = i as i32;
                set3(&mut m.jnt_pos, jid, &pj.pos);
                set3(&mut m.jnt_axis, jid, &pj.axis);
                m.jnt_stiffness[jid] = pj.stiffness;
                set3(&mut m.jnt_range, jid, &pj.range);
                set3(&mut m.jnt_actfrcrange, jid, &pj.actfrcrange);
                set3(&mut m.jnt_solref, jid, &pj.solref_limit);
                set3(&mut m.jnt_solimp, jid, &pj.solimp_limit);
                m.jnt_margin[jid] = pj.margin;
                set3(&mut m.jnt_user, jid, &pj.userdata);
                let misaligned = (pj.jtype == JNT_HINGE || pj.jtype == JNT_SLIDE)
                    && pj.axis.iter().filter(|a| a.abs() > EPS).count() > 1;
                if rotfound || !null_pose(Some(&pj.pos), None) || misaligned {
                    m.body_simple[i] = 0;
                }
                rotfound |= pj.jtype == JNT_BALL || pj.jtype == JNT_HINGE;
                let q = qposadr;
                match pj.jtype {
                    JNT_FREE => {
                        m.qpos0[q..q + 3].copy_from_slice(&pb.pos);
                        m.qpos0[q + 3..q + 7].copy_from_slice(&pb.quat);
                        let p = &pb.pos;
                        let r = &pb.quat;
                        m.qpos_spring[q..q + 7]
                            .copy_from_slice(&[p[0], p[1], p[2], r[0], r[1], r[2], r[3]]);
                    }
                    JNT_BALL => {
                        m.qpos0[q..q + 4].copy_from_slice(&[1.0, 0.0, 0.0, 0.0]);
                        m.qpos_spring[q..q + 4].copy_from_slice(&[1.0, 0.0, 0.0, 0.0]);
                    }
                    JNT_SLIDE | JNT_HINGE => {
                        m.qpos0[q] = pj.ref_;
                        m.qpos_spring[q] = pj.springref;
                    }
                    _ => {
                        return Err(XmlError::compile(
                            "unknown joint type",
                            &pj.name,
                            jid,
                            &pj.info,
                        ))
                    }
                }
                let (np, nv) = npos_nvel(pj.jtype);
                for _ in 0..nv {
                    m.dof_bodyid[dofadr] = i as i32;
                    m.dof_jntid[dofadr] = jid as i32;
                    set3(&mut m.dof_solref, dofadr, &pj.solref_friction);
                    set3(&mut m.dof_solimp, dofadr, &pj.solimp_friction);
                    m.dof_frictionloss[dofadr] = pj.frictionloss;
                    m.dof_armature[dofadr] = pj.armature;
                    m.dof_damping[dofadr] = pj.damping;
                    m.dof_parentid[dofadr] = last;
                    last = dofadr as i32;
                    dofadr += 1;
                }
                jntadr += 1;
                qposadr += np;
            }
            lastdof[i] = last;
            if m.body_simple[i] != 0 && m.body_dofnum[i] != 0 {
                m.body_simple[i] = if pb
                    .joints
                    .iter()
                    .all(|&j| self.joints[j].s.jtype == JNT_SLIDE)
                {
                    2
                } else {
                    1
                };
            }
            for &gid in &pb.geoms {
                self.copy_geom(m, gid, pb);
            }
            for &sid in &pb.sites {
                let ps = &self.sites[sid];
                m.site_type[sid] = ps.s.stype;
                m.site_bodyid[sid] = ps.body as i32;
                m.site_matid[sid] = ps.matid;
                m.site_group[sid] = ps.s.group;
                set3(&mut m.site_size, sid, &ps.s.size);
                set3(&mut m.site_pos, sid, &ps.s.pos);
                set3(&mut m.site_quat, sid, &ps.s.quat);
                set3(&mut m.site_user, sid, &ps.s.userdata);
                set3(&mut m.site_rgba, sid, &ps.s.rgba);
                m.site_sameframe[sid] = sameframe(&ps.s.pos, &ps.s.quat, &pb.ipos, &pb.iquat);
            }
            for &cid in &pb.cameras {
                let pc = &self.cameras[cid];
                m.cam_bodyid[cid] = pc.body as i32;
                m.cam_mode[cid] = pc.s.mode;
                m.cam_targetbodyid[cid] = pc.targetbodyid;
                set3(&mut m.cam_pos, cid, &pc.s.pos);
                set3(&mut m.cam_quat, cid, &pc.s.quat);
                m.cam_fovy[cid] = pc.s.fovy;
                m.cam_ipd[cid] = pc.s.ipd;
                set3(
                    &mut m.cam_resolution,
                    cid,
                    &pc.s.resolution.map(|r| r as i32),
                );
                set3(&mut m.cam_sensorsize, cid, &pc.s.sensor_size);
                set3(&mut m.cam_intrinsic, cid, &pc.s.intrinsic);
                set3(&mut m.cam_user, cid, &pc.s.userdata);
            }
            for &lid in &pb.lights {
                let pl = &self.lights[lid];
                m.light_bodyid[lid] = pl.body as i32;
                m.light_mode[lid] = pl.s.mode;
                m.light_targetbodyid[lid] = pl.targetbodyid;
                m.light_directional[lid] = u8::from(pl.s.directional);
                m.light_castshadow[lid] = u8::from(pl.s.castshadow);
                m.light_active[lid] = u8::from(pl.s.active);
                set3(&mut m.light_pos, lid, &pl.s.pos);
                set3(&mut m.light_dir, lid, &pl.s.dir);
                m.light_bulbradius[lid] = pl.s.bulbradius as f32;
                set3(&mut m.light_attenuation, lid, &pl.s.attenuation);
                m.light_cutoff[lid] = pl.s.cutoff;
                m.light_exponent[lid] = pl.s.exponent;
                set3(&mut m.light_ambient, lid, &pl.s.ambient);
                set3(&mut m.light_diffuse, lid, &pl.s.diffuse);
                set3(&mut m.light_specular, lid, &pl.s.specular);
            }
        }
        self.copy_dof_tree(m);
        Ok(())
    }

    fn copy_geom(&self, m: &mut Model, gid: usize, pb: &super::CBody) {
        let pg = &self.geoms[gid];
        let s = &pg.s;
        m.geom_type[gid] = s.gtype;
        m.geom_contype[gid] = s.contype;
        m.geom_conaffinity[gid] = s.conaffinity;
        m.geom_condim[gid] = s.condim;
        m.geom_bodyid[gid] = pg.body as i32;
        m.geom_dataid[gid] = match (pg.mesh, pg.hfield) {
            (Some(i), _) | (None, Some(i)) => i as i32,
            _ => -1,
        };
        m.geom_matid[gid] = pg.matid;
        m.geom_group[gid] = s.group;
        m.geom_priority[gid] = s.priority;
        set3(&mut m.geom_size, gid, &s.size);
        set3(&mut m.geom_aabb, gid, &pg.aabb);
        set3(&mut m.geom_pos, gid, &s.pos);
        set3(&mut m.geom_quat, gid, &s.quat);
        set3(&mut m.geom_friction, gid, &s.friction);
        m.geom_solmix[gid] = s.solmix;
        set3(&mut m.geom_solref, gid, &s.solref);
        set3(&mut m.geom_solimp, gid, &s.solimp);
        m.geom_margin[gid] = s.margin;
        m.geom_gap[gid] = s.gap;
        set3(&mut m.geom_fluid, gid, &pg.fluid);
        set3(&mut m.geom_user, gid, &s.userdata);
        set3(&mut m.geom_rgba, gid, &s.rgba);
        m.geom_sameframe[gid] = sameframe(&s.pos, &s.quat, &pb.ipos, &pb.iquat);
        m.geom_rbound[gid] = self.rbound(gid);
    }

    /// `GetRBound`: the radius of the geom's bounding sphere.
    fn rbound(&self, gid: usize) -> f64 {
        let g = &self.geoms[gid];
        let s = &g.s.size;
        match g.s.gtype {
            GEOM_HFIELD => {
                let h = self.spec.hfields[g.hfield.unwrap_or(0)].size;
                (h[0] * h[0] + h[1] * h[1] + c_max(h[2] * h[2], h[3] * h[3])).sqrt()
            }
            GEOM_SPHERE => s[0],
            GEOM_CAPSULE => s[0] + s[1],
            GEOM_CYLINDER => (s[0] * s[0] + s[1] * s[1]).sqrt(),
            GEOM_ELLIPSOID => mju_max(mju_max(s[0], s[1]), s[2]),
            GEOM_BOX => (s[0] * s[0] + s[1] * s[1] + s[2] * s[2]).sqrt(),
            GEOM_MESH | GEOM_SDF => {
                let a = g
                    .mesh
                    .and_then(|m| self.meshes[m].as_ref())
                    .map_or([0.0; 6], |m| m.aamm());
                let h = [
                    mju_max(a[0].abs(), a[3].abs()),
                    mju_max(a[1].abs(), a[4].abs()),
                    mju_max(a[2].abs(), a[5].abs()),
                ];
                (h[0] * h[0] + h[1] * h[1] + h[2] * h[2]).sqrt()
            }
            _ => 0.0,
        }
    }

    /// `dof_treeid`, `body_treeid`, `dof_Madr`, `dof_simplenum` (end of `CopyTree`).
    fn copy_dof_tree(&self, m: &mut Model) {
        let nv = m.dof_parentid.len();
        let mut ntree = 0;
        for i in 0..nv {
            if m.dof_parentid[i] == -1 {
                ntree += 1;
            }
            m.dof_treeid[i] = ntree - 1;
        }
        for i in 0..self.bodies.len() {
            let w = m.body_weldid[i] as usize;
            m.body_treeid[i] = if m.body_dofnum[w] != 0 {
                m.dof_treeid[m.body_dofadr[w] as usize]
            } else {
                -1
            };
        }
        let mut adr = 0;
        for i in 0..nv {
            m.dof_Madr[i] = adr;
            let mut j = i as i32;
            while j >= 0 {
                adr += 1;
                j = m.dof_parentid[j as usize];
            }
        }
        let mut count = 0;
        for i in (0..nv).rev() {
            if m.body_simple[m.dof_bodyid[i] as usize] != 0 {
                count += 1;
            } else {
                count = 0;
            }
            m.dof_simplenum[i] = count;
        }
    }

    /// `CopyObjects`: assets, pairs, excludes, equalities, tendons, actuators, sensors, custom
    /// data and keyframes.
    fn copy_objects(&self, m: &mut Model) {
        let bvhadr = self.copy_meshes(m);
        self.copy_flexes(m, bvhadr);
        self.copy_skins(m);
        let mut adr = 0;
        for (i, h) in self.hfields.iter().enumerate() {
            set3(&mut m.hfield_size, i, &h.size);
            m.hfield_nrow[i] = h.nrow;
            m.hfield_ncol[i] = h.ncol;
            m.hfield_adr[i] = adr as i32;
            m.hfield_data[adr..adr + h.data.len()].copy_from_slice(&h.data);
            adr += h.data.len();
        }
        let mut adr = 0;
        for (i, t) in self.textures.iter().enumerate() {
            m.tex_type[i] = t.ttype;
            m.tex_height[i] = t.height;
            m.tex_width[i] = t.width;
            m.tex_adr[i] = adr as i32;
            m.tex_rgb[adr..adr + t.rgb.len()].copy_from_slice(&t.rgb);
            adr += t.rgb.len();
        }
        for (i, x) in self.spec.materials.iter().enumerate() {
            m.mat_texid[i] = self.objects.mat_texid[i];
            m.mat_texuniform[i] = u8::from(x.texuniform);
            set3(&mut m.mat_texrepeat, i, &x.texrepeat);
            m.mat_emission[i] = x.emission;
            m.mat_specular[i] = x.specular;
            m.mat_shininess[i] = x.shininess;
            m.mat_reflectance[i] = x.reflectance;
            m.mat_metallic[i] = x.metallic;
            m.mat_roughness[i] = x.roughness;
            set3(&mut m.mat_rgba, i, &x.rgba);
        }
        let o = &self.objects;
        for (i, p) in o.pairs.iter().enumerate() {
            m.pair_dim[i] = p.condim;
            m.pair_geom1[i] = p.geom1 as i32;
            m.pair_geom2[i] = p.geom2 as i32;
            m.pair_signature[i] = p.signature;
            set3(&mut m.pair_solref, i, &p.solref);
            set3(&mut m.pair_solreffriction, i, &p.solreffriction);
            set3(&mut m.pair_solimp, i, &p.solimp);
            m.pair_margin[i] = p.margin;
            m.pair_gap[i] = p.gap;
            set3(&mut m.pair_friction, i, &p.friction);
        }
        for (i, x) in o.excludes.iter().enumerate() {
            m.exclude_signature[i] = x.signature;
        }
        for (i, q) in o.equalities.iter().enumerate() {
            m.eq_type[i] = q.etype;
            m.eq_obj1id[i] = q.obj1id;
            m.eq_obj2id[i] = q.obj2id;
            m.eq_active0[i] = u8::from(q.active);
            set3(&mut m.eq_solref, i, &q.solref);
            set3(&mut m.eq_solimp, i, &q.solimp);
            set3(&mut m.eq_data, i, &q.data);
        }
        self.copy_tendons(m);
        self.copy_actuators(m);
        self.copy_sensors(m);
        self.copy_custom(m);
        self.copy_keys(m);
    }

    /// Copies the meshes; returns the end of their hierarchies in `bvh_*`.
    fn copy_meshes(&self, m: &mut Model) -> usize {
        let mut bvhadr = (0..self.bodies.len())
            .map(|i| (m.body_bvhadr[i] + m.body_bvhnum[i]).max(0) as usize)
            .max()
            .unwrap_or(0);
        let (mut vert, mut normal, mut tex, mut face, mut graph) = (0, 0, 0, 0, 0);
        for (i, pm) in self.meshes.iter().enumerate() {
            let Some(me) = pm else { continue };
            let (nv, nn, nf, nt) = (
                me.vert.len() / 3,
                me.normal.len() / 3,
                me.face.len() / 3,
                me.texcoord.len() / 2,
            );
            m.mesh_vertadr[i] = vert as i32;
            m.mesh_vertnum[i] = nv as i32;
            m.mesh_normaladr[i] = normal as i32;
            m.mesh_normalnum[i] = nn as i32;
            m.mesh_texcoordadr[i] = if me.has_texcoord() { tex as i32 } else { -1 };
            m.mesh_texcoordnum[i] = nt as i32;
            m.mesh_faceadr[i] = face as i32;
            m.mesh_facenum[i] = nf as i32;
            m.mesh_graphadr[i] = if me.graph.is_empty() {
                -1
            } else {
                graph as i32
            };
            let nbvh = me.bvh.len();
            m.mesh_bvhnum[i] = nbvh as i32;
            m.mesh_bvhadr[i] = if nbvh > 0 { bvhadr as i32 } else { -1 };
            set3(&mut m.mesh_scale, i, &me.scale);
            set3(&mut m.mesh_pos, i, &me.offset_pos);
            set3(&mut m.mesh_quat, i, &me.offset_quat);
            m.mesh_vert[3 * vert..3 * (vert + nv)].copy_from_slice(&me.vert);
            m.mesh_normal[3 * normal..3 * (normal + nn)].copy_from_slice(&me.normal);
            m.mesh_face[3 * face..3 * (face + nf)].copy_from_slice(&me.face);
            m.mesh_facenormal[3 * face..3 * (face + nf)].copy_from_slice(&me.facenormal);
            if me.has_texcoord() {
                m.mesh_texcoord[2 * tex..2 * (tex + nt)].copy_from_slice(&me.texcoord);
                m.mesh_facetexcoord[3 * face..3 * (face + nf)].copy_from_slice(&me.facetexcoord);
            }
            m.mesh_graph[graph..graph + me.graph.len()].copy_from_slice(&me.graph);
            m.bvh_aabb[6 * bvhadr..6 * (bvhadr + nbvh)].copy_from_slice(&me.bvh.aabb);
            m.bvh_child[2 * bvhadr..2 * (bvhadr + nbvh)].copy_from_slice(&me.bvh.child);
            m.bvh_depth[bvhadr..bvhadr + nbvh].copy_from_slice(&me.bvh.level);
            m.bvh_nodeid[bvhadr..bvhadr + nbvh].copy_from_slice(&me.bvh.nodeid);
            vert += nv;
            normal += nn;
            tex += if me.has_texcoord() { nt } else { 0 };
            face += nf;
            graph += me.graph.len();
            bvhadr += nbvh;
        }
        bvhadr
    }

    fn copy_skins(&self, m: &mut Model) {
        let (mut vert, mut face, mut tex, mut bone, mut bonevert) = (0, 0, 0, 0, 0);
        for (i, k) in self.skins.iter().enumerate() {
            let s = &self.spec.skins[i];
            m.skin_matid[i] = self.objects.skin_matid[i];
            m.skin_group[i] = s.group;
            set3(&mut m.skin_rgba, i, &s.rgba);
            m.skin_inflate[i] = s.inflate;
            let (nv, nt, nf, nb) = (
                k.vert.len() / 3,
                k.texcoord.len() / 2,
                k.face.len() / 3,
                k.bodyid.len(),
            );
            m.skin_vertadr[i] = vert as i32;
            m.skin_vertnum[i] = nv as i32;
            m.skin_texcoordadr[i] = if nt > 0 { tex as i32 } else { -1 };
            m.skin_faceadr[i] = face as i32;
            m.skin_facenum[i] = nf as i32;
            m.skin_boneadr[i] = bone as i32;
            m.skin_bonenum[i] = nb as i32;
            m.skin_vert[3 * vert..3 * (vert + nv)].copy_from_slice(&k.vert);
            m.skin_texcoord[2 * tex..2 * (tex + nt)].copy_from_slice(&k.texcoord);
            m.skin_face[3 * face..3 * (face + nf)].copy_from_slice(&k.face);
            m.skin_bonebindpos[3 * bone..3 * (bone + nb)].copy_from_slice(&k.bindpos);
            m.skin_bonebindquat[4 * bone..4 * (bone + nb)].copy_from_slice(&k.bindquat);
            m.skin_bonebodyid[bone..bone + nb].copy_from_slice(&k.bodyid);
            for j in 0..nb {
                let n = k.vertid[j].len();
                m.skin_bonevertadr[bone + j] = bonevert as i32;
                m.skin_bonevertnum[bone + j] = n as i32;
                m.skin_bonevertid[bonevert..bonevert + n].copy_from_slice(&k.vertid[j]);
                m.skin_bonevertweight[bonevert..bonevert + n]
                    .copy_from_slice(&k.vertweight[j][..n]);
                bonevert += n;
            }
            vert += nv;
            tex += nt;
            face += nf;
            bone += nb;
        }
    }

    fn copy_tendons(&self, m: &mut Model) {
        let mut adr = 0;
        for (i, t) in self.objects.tendons.iter().enumerate() {
            let s = &t.s;
            m.tendon_adr[i] = adr as i32;
            m.tendon_num[i] = t.path.len() as i32;
            m.tendon_matid[i] = self.objects.tendon_matid[i];
            m.tendon_group[i] = s.group;
            m.tendon_limited[i] = u8::from(s.limited.is_limited(&s.range));
            m.tendon_width[i] = s.width;
            set3(&mut m.tendon_solref_lim, i, &s.solref_limit);
            set3(&mut m.tendon_solimp_lim, i, &s.solimp_limit);
            set3(&mut m.tendon_solref_fri, i, &s.solref_friction);
            set3(&mut m.tendon_solimp_fri, i, &s.solimp_friction);
            set3(&mut m.tendon_range, i, &s.range);
            m.tendon_margin[i] = s.margin;
            m.tendon_stiffness[i] = s.stiffness;
            m.tendon_damping[i] = s.damping;
            m.tendon_frictionloss[i] = s.frictionloss;
            set3(&mut m.tendon_lengthspring, i, &s.springlength);
            set3(&mut m.tendon_user, i, &s.userdata);
            set3(&mut m.tendon_rgba, i, &s.rgba);
            for (k, w) in t.path.iter().enumerate() {
                m.wrap_type[adr + k] = w.wtype;
                m.wrap_objid[adr + k] = w.objid;
                m.wrap_prm[adr + k] = w.prm;
            }
            adr += t.path.len();
        }
    }

    fn copy_actuators(&self, m: &mut Model) {
        let mut adr = 0;
        for (i, a) in self.objects.actuators.iter().enumerate() {
            let s = &a.s;
            m.actuator_trntype[i] = s.trntype;
            m.actuator_dyntype[i] = s.dyntype;
            m.actuator_gaintype[i] = s.gaintype;
            m.actuator_biastype[i] = s.biastype;
            set3(&mut m.actuator_trnid, i, &a.trnid);
            let actnum = self.actnum(i) as i32;
            m.actuator_actnum[i] = actnum;
            m.actuator_actadr[i] = if actnum > 0 { adr } else { -1 };
            adr += actnum;
            m.actuator_group[i] = s.group;
            m.actuator_ctrllimited[i] = u8::from(s.ctrllimited.is_limited(&s.ctrlrange));
            m.actuator_forcelimited[i] = u8::from(s.forcelimited.is_limited(&s.forcerange));
            m.actuator_actlimited[i] = u8::from(s.actlimited.is_limited(&s.actrange));
            m.actuator_actearly[i] = u8::from(s.actearly);
            m.actuator_cranklength[i] = s.cranklength;
            set3(&mut m.actuator_gear, i, &s.gear);
            set3(&mut m.actuator_dynprm, i, &s.dynprm);
            set3(&mut m.actuator_gainprm, i, &s.gainprm);
            set3(&mut m.actuator_biasprm, i, &s.biasprm);
            set3(&mut m.actuator_ctrlrange, i, &s.ctrlrange);
            set3(&mut m.actuator_forcerange, i, &s.forcerange);
            set3(&mut m.actuator_actrange, i, &s.actrange);
            set3(&mut m.actuator_lengthrange, i, &s.lengthrange);
            set3(&mut m.actuator_user, i, &s.userdata);
        }
    }

    fn copy_sensors(&self, m: &mut Model) {
        let mut adr = 0;
        for (i, x) in self.objects.sensors.iter().enumerate() {
            let s = &x.s;
            m.sensor_type[i] = s.stype;
            m.sensor_datatype[i] = s.datatype;
            m.sensor_needstage[i] = s.needstage;
            m.sensor_objtype[i] = s.objtype;
            m.sensor_objid[i] = x.objid;
            m.sensor_reftype[i] = s.reftype;
            m.sensor_refid[i] = x.refid;
            m.sensor_dim[i] = s.dim;
            m.sensor_cutoff[i] = s.cutoff;
            m.sensor_noise[i] = s.noise;
            set3(&mut m.sensor_user, i, &s.userdata);
            m.sensor_adr[i] = adr;
            adr += s.dim;
        }
    }

    fn copy_custom(&self, m: &mut Model) {
        let mut adr = 0;
        for (i, n) in self.spec.numerics.iter().enumerate() {
            let size = n.size.max(0) as usize;
            m.numeric_adr[i] = adr as i32;
            m.numeric_size[i] = size as i32;
            for j in 0..size {
                m.numeric_data[adr + j] = n.data.get(j).copied().unwrap_or(0.0);
            }
            adr += size;
        }
        let mut adr = 0;
        for (i, t) in self.spec.texts.iter().enumerate() {
            let data = raw_bytes(&t.data);
            m.text_adr[i] = adr as i32;
            m.text_size[i] = data.len() as i32 + 1;
            m.text_data[adr..adr + data.len()].copy_from_slice(&data);
            m.text_data[adr + data.len()] = 0;
            adr += data.len() + 1;
        }
        let mut adr = 0;
        for (i, t) in self.objects.tuples.iter().enumerate() {
            let n = t.objtype.len();
            m.tuple_adr[i] = adr as i32;
            m.tuple_size[i] = n as i32;
            m.tuple_objtype[adr..adr + n].copy_from_slice(&t.objtype);
            m.tuple_objid[adr..adr + n].copy_from_slice(&t.objid);
            m.tuple_objprm[adr..adr + n].copy_from_slice(&t.objprm);
            adr += n;
        }
    }

    fn copy_keys(&self, m: &mut Model) {
        let z = *m.sizes();
        let (nq, nv, na, nu, nmocap) = (z.nq, z.nv, z.na, z.nu, z.nmocap);
        for (i, k) in self.objects.keys.iter().enumerate() {
            m.key_time[i] = k.time;
            m.key_qpos[i * nq..(i + 1) * nq].copy_from_slice(&k.qpos);
            m.key_qvel[i * nv..(i + 1) * nv].copy_from_slice(&k.qvel);
            m.key_act[i * na..(i + 1) * na].copy_from_slice(&k.act);
            m.key_mpos[i * 3 * nmocap..(i + 1) * 3 * nmocap].copy_from_slice(&k.mpos);
            m.key_mquat[i * 4 * nmocap..(i + 1) * 4 * nmocap].copy_from_slice(&k.mquat);
            for j in 0..m.jnt_type.len() {
                let t = m.jnt_type[j];
                if t == JNT_BALL || t == JNT_FREE {
                    let a = i * nq + m.jnt_qposadr[j] as usize + if t == JNT_FREE { 3 } else { 0 };
                    normalize4(&mut m.key_qpos[a..a + 4]);
                }
            }
            for j in 0..nmocap {
                let a = i * 4 * nmocap + 4 * j;
                normalize4(&mut m.key_mquat[a..a + 4]);
            }
            m.key_ctrl[i * nu..(i + 1) * nu].copy_from_slice(&k.ctrl);
        }
    }

    /// `mjCKey::Compile`: empty vectors take the model's defaults, others must have the
    /// model's sizes.
    fn compile_keys(&mut self, m: &Model) -> Result<(), XmlError> {
        let z = *m.sizes();
        let (nq, nv, na, nu, nmocap) = (z.nq, z.nv, z.na, z.nu, z.nmocap);
        let mut keys = self.spec.keys.clone();
        for (i, k) in keys.iter_mut().enumerate() {
            let err = |what: &str, n: usize| {
                XmlError::compile(
                    format!("key {i}: invalid {what} size, expected length {n}"),
                    &k.name,
                    i,
                    &k.info,
                )
            };
            let fill = |v: &mut Vec<f64>, n: usize, what: &str, default: &dyn Fn() -> Vec<f64>| {
                if v.is_empty() {
                    *v = default();
                    Ok(())
                } else if v.len() != n {
                    Err(err(what, n))
                } else {
                    Ok(())
                }
            };
            fill(&mut k.qpos, nq, "qpos", &|| m.qpos0.to_vec())?;
            fill(&mut k.qvel, nv, "qvel", &|| vec![0.0; nv])?;
            fill(&mut k.act, na, "act", &|| vec![0.0; na])?;
            let mocap_bodies: Vec<usize> = (0..m.body_mocapid.len())
                .filter(|&b| m.body_mocapid[b] >= 0)
                .collect();
            fill(&mut k.mpos, 3 * nmocap, "mpos", &|| {
                let mut v = vec![0.0; 3 * nmocap];
                for &b in &mocap_bodies {
                    let id = m.body_mocapid[b] as usize;
                    v[3 * id..3 * id + 3].copy_from_slice(&m.body_pos[3 * b..3 * b + 3]);
                }
                v
            })?;
            fill(&mut k.mquat, 4 * nmocap, "mquat", &|| {
                let mut v = vec![0.0; 4 * nmocap];
                for &b in &mocap_bodies {
                    let id = m.body_mocapid[b] as usize;
                    v[4 * id..4 * id + 4].copy_from_slice(&m.body_quat[4 * b..4 * b + 4]);
                }
                v
            })?;
            fill(&mut k.ctrl, nu, "ctrl", &|| vec![0.0; nu])?;
        }
        self.objects.keys = keys;
        Ok(())
    }
}

/// `mju_normalize4` on a slice of four.
fn normalize4(q: &mut [f64]) {
    let mut v = [q[0], q[1], q[2], q[3]];
    mjrs_core::math::vec::normalize4(&mut v);
    q.copy_from_slice(&v);
}

/// `geom_sameframe`/`site_sameframe`: 1 at the body frame, 2 at the inertial frame, else 0.
fn sameframe(pos: &[f64; 3], quat: &[f64; 4], ipos: &[f64; 3], iquat: &[f64; 4]) -> u8 {
    if null_pose(Some(pos), Some(quat)) {
        1
    } else if pos == ipos && quat == iquat {
        2
    } else {
        0
    }
}

/// MuJoCo's heuristic stack size in numbers, `max(1000, 5 a² + 20 n)` with `a` the constraint
/// rows plus dofs and `n` the sum of the object counts. MuJoCo evaluates it in 32-bit `int`,
/// which wraps from about 20,000 dofs on: the model then gets the wrapped value, or the floor of
/// 1000 when that is negative (70,000 dofs give an arena of 805 MiB, 10,000 give 4.2 GiB). The
/// same wrapping here gives the same `narena`, and keeps large models from asking for arenas of
/// tens of gigabytes that MuJoCo never allocates.
fn stack_heuristic(z: &ModelSizes, njmax: usize) -> usize {
    let int = |n: usize| n as i32;
    let a = int(njmax).wrapping_add(int(z.neq)).wrapping_add(int(z.nv));
    let counts = [
        z.nq, z.nv, z.nu, z.na, z.nbody, z.njnt, z.ngeom, z.nsite, z.neq, z.ntendon, z.nwrap,
    ];
    let n = counts.iter().fold(0i32, |sum, &c| sum.wrapping_add(int(c)));
    let v = 5i32
        .wrapping_mul(a)
        .wrapping_mul(a)
        .wrapping_add(20i32.wrapping_mul(n));
    v.max(1000) as usize
}

/// `a * b` as MuJoCo's arena size computes it: in 32-bit `int` (wrapping), then widened to
/// `size_t` (a negative product sign-extended).
fn int_product(a: usize, b: usize) -> usize {
    (a as i32).wrapping_mul(b as i32) as isize as usize
}
