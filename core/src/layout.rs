//! The one layout table: every array of MuJoCo 3.1.6's `mjModel` and `mjData`, declared once.
//!
//! This module is mjrs's `mjxmacro.h`. Each table is a macro that hands its rows to a callback
//! macro; everything that walks "all fields" is generated from these rows: the [`Model`] and
//! [`Data`] structs, their byte counts and carving from an arena, MJB serialization, copying, the
//! JSON dumps and the conformance comparison. Adding a field is one line here.
//!
//! A row reads `name: ctype [rows, cols]`:
//! * `ctype` is the C element type: `num` (`mjtNum`, Rust [`Real`]), `float` (`f32`), `int`
//!   (`i32`), `byte` (`mjtByte`, `u8`), `char` (`u8`), `ptr` (`uintptr_t`, `u64`), `contact`
//!   ([`Contact`]).
//! * `rows` names a size (`nbody`, `nv`, ...; in the data-arena table also `nefc`, `ncon`, ...).
//! * `cols` is a literal, a MuJoCo constant in parentheses (`(NREF)` is [`NREF`]), a size, or a
//!   size times a literal (`nmocap * 3`). A row with `cols` = `1` is a vector (shape `[rows]` in
//!   the JSON dumps), any other row a matrix (shape `[rows, cols]`), as in MuJoCo's Python bindings.
//!
//! [`Model`]: crate::Model
//! [`Data`]: crate::Data
//! [`Real`]: crate::Real
//! [`Contact`]: crate::records::Contact
//! [`NREF`]: crate::types::NREF

/// The size integers of `mjModel` (`MJMODEL_INTS`), in MuJoCo's order, which is also their order
/// in an MJB file. The two `size_t` sizes that end that list, `narena` and `nbuffer`, are not
/// rows here: they are 64-bit in the file and handled beside this table.
///
/// A `count` is a non-negative `usize` in memory (an `int` in the file, rejected when negative);
/// `njmax` and `nconmax` are plain `int`s because MuJoCo stores -1 there for "not set".
#[macro_export]
macro_rules! mjmodel_ints {
    ($cb:ident) => {
        $cb! {
            nq: count,
            nv: count,
            nu: count,
            na: count,
            nbody: count,
            nbvh: count,
            nbvhstatic: count,
            nbvhdynamic: count,
            njnt: count,
            ngeom: count,
            nsite: count,
            ncam: count,
            nlight: count,
            nflex: count,
            nflexvert: count,
            nflexedge: count,
            nflexelem: count,
            nflexelemdata: count,
            nflexshelldata: count,
            nflexevpair: count,
            nflextexcoord: count,
            nmesh: count,
            nmeshvert: count,
            nmeshnormal: count,
            nmeshtexcoord: count,
            nmeshface: count,
            nmeshgraph: count,
            nskin: count,
            nskinvert: count,
            nskintexvert: count,
            nskinface: count,
            nskinbone: count,
            nskinbonevert: count,
            nhfield: count,
            nhfielddata: count,
            ntex: count,
            ntexdata: count,
            nmat: count,
            npair: count,
            nexclude: count,
            neq: count,
            ntendon: count,
            nwrap: count,
            nsensor: count,
            nnumeric: count,
            nnumericdata: count,
            ntext: count,
            ntextdata: count,
            ntuple: count,
            ntupledata: count,
            nkey: count,
            nmocap: count,
            nplugin: count,
            npluginattr: count,
            nuser_body: count,
            nuser_jnt: count,
            nuser_geom: count,
            nuser_site: count,
            nuser_cam: count,
            nuser_tendon: count,
            nuser_actuator: count,
            nuser_sensor: count,
            nnames: count,
            npaths: count,
            nnames_map: count,
            nM: count,
            nD: count,
            nB: count,
            nemax: count,
            njmax: int,
            nconmax: int,
            ntree: count,
            ngravcomp: count,
            nuserdata: count,
            nsensordata: count,
            npluginstate: count,
        }
    };
}

/// Every `mjModel` array (`MJMODEL_POINTERS`), in MuJoCo's order (also the MJB order).
#[macro_export]
macro_rules! mjmodel_arrays {
    ($cb:ident) => {
        $cb! {
            qpos0:                 num     [nq, 1],
            qpos_spring:           num     [nq, 1],
            body_parentid:         int     [nbody, 1],
            body_rootid:           int     [nbody, 1],
            body_weldid:           int     [nbody, 1],
            body_mocapid:          int     [nbody, 1],
            body_jntnum:           int     [nbody, 1],
            body_jntadr:           int     [nbody, 1],
            body_dofnum:           int     [nbody, 1],
            body_dofadr:           int     [nbody, 1],
            body_treeid:           int     [nbody, 1],
            body_geomnum:          int     [nbody, 1],
            body_geomadr:          int     [nbody, 1],
            body_simple:           byte    [nbody, 1],
            body_sameframe:        byte    [nbody, 1],
            body_pos:              num     [nbody, 3],
            body_quat:             num     [nbody, 4],
            body_ipos:             num     [nbody, 3],
            body_iquat:            num     [nbody, 4],
            body_mass:             num     [nbody, 1],
            body_subtreemass:      num     [nbody, 1],
            body_inertia:          num     [nbody, 3],
            body_invweight0:       num     [nbody, 2],
            body_gravcomp:         num     [nbody, 1],
            body_margin:           num     [nbody, 1],
            body_user:             num     [nbody, nuser_body],
            body_plugin:           int     [nbody, 1],
            body_contype:          int     [nbody, 1],
            body_conaffinity:      int     [nbody, 1],
            body_bvhadr:           int     [nbody, 1],
            body_bvhnum:           int     [nbody, 1],
            bvh_depth:             int     [nbvh, 1],
            bvh_child:             int     [nbvh, 2],
            bvh_nodeid:            int     [nbvh, 1],
            bvh_aabb:              num     [nbvhstatic, 6],
            jnt_type:              int     [njnt, 1],
            jnt_qposadr:           int     [njnt, 1],
            jnt_dofadr:            int     [njnt, 1],
            jnt_bodyid:            int     [njnt, 1],
            jnt_group:             int     [njnt, 1],
            jnt_limited:           byte    [njnt, 1],
            jnt_actfrclimited:     byte    [njnt, 1],
            jnt_actgravcomp:       byte    [njnt, 1],
            jnt_solref:            num     [njnt, (NREF)],
            jnt_solimp:            num     [njnt, (NIMP)],
            jnt_pos:               num     [njnt, 3],
            jnt_axis:              num     [njnt, 3],
            jnt_stiffness:         num     [njnt, 1],
            jnt_range:             num     [njnt, 2],
            jnt_actfrcrange:       num     [njnt, 2],
            jnt_margin:            num     [njnt, 1],
            jnt_user:              num     [njnt, nuser_jnt],
            dof_bodyid:            int     [nv, 1],
            dof_jntid:             int     [nv, 1],
            dof_parentid:          int     [nv, 1],
            dof_treeid:            int     [nv, 1],
            dof_Madr:              int     [nv, 1],
            dof_simplenum:         int     [nv, 1],
            dof_solref:            num     [nv, (NREF)],
            dof_solimp:            num     [nv, (NIMP)],
            dof_frictionloss:      num     [nv, 1],
            dof_armature:          num     [nv, 1],
            dof_damping:           num     [nv, 1],
            dof_invweight0:        num     [nv, 1],
            dof_M0:                num     [nv, 1],
            geom_type:             int     [ngeom, 1],
            geom_contype:          int     [ngeom, 1],
            geom_conaffinity:      int     [ngeom, 1],
            geom_condim:           int     [ngeom, 1],
            geom_bodyid:           int     [ngeom, 1],
            geom_dataid:           int     [ngeom, 1],
            geom_matid:            int     [ngeom, 1],
            geom_group:            int     [ngeom, 1],
            geom_priority:         int     [ngeom, 1],
            geom_plugin:           int     [ngeom, 1],
            geom_sameframe:        byte    [ngeom, 1],
            geom_solmix:           num     [ngeom, 1],
            geom_solref:           num     [ngeom, (NREF)],
            geom_solimp:           num     [ngeom, (NIMP)],
            geom_size:             num     [ngeom, 3],
            geom_aabb:             num     [ngeom, 6],
            geom_rbound:           num     [ngeom, 1],
            geom_pos:              num     [ngeom, 3],
            geom_quat:             num     [ngeom, 4],
            geom_friction:         num     [ngeom, 3],
            geom_margin:           num     [ngeom, 1],
            geom_gap:              num     [ngeom, 1],
            geom_fluid:            num     [ngeom, (NFLUID)],
            geom_user:             num     [ngeom, nuser_geom],
            geom_rgba:             float   [ngeom, 4],
            site_type:             int     [nsite, 1],
            site_bodyid:           int     [nsite, 1],
            site_matid:            int     [nsite, 1],
            site_group:            int     [nsite, 1],
            site_sameframe:        byte    [nsite, 1],
            site_size:             num     [nsite, 3],
            site_pos:              num     [nsite, 3],
            site_quat:             num     [nsite, 4],
            site_user:             num     [nsite, nuser_site],
            site_rgba:             float   [nsite, 4],
            cam_mode:              int     [ncam, 1],
            cam_bodyid:            int     [ncam, 1],
            cam_targetbodyid:      int     [ncam, 1],
            cam_resolution:        int     [ncam, 2],
            cam_sensorsize:        float   [ncam, 2],
            cam_intrinsic:         float   [ncam, 4],
            cam_pos:               num     [ncam, 3],
            cam_quat:              num     [ncam, 4],
            cam_poscom0:           num     [ncam, 3],
            cam_pos0:              num     [ncam, 3],
            cam_mat0:              num     [ncam, 9],
            cam_fovy:              num     [ncam, 1],
            cam_ipd:               num     [ncam, 1],
            cam_user:              num     [ncam, nuser_cam],
            light_mode:            int     [nlight, 1],
            light_bodyid:          int     [nlight, 1],
            light_targetbodyid:    int     [nlight, 1],
            light_directional:     byte    [nlight, 1],
            light_castshadow:      byte    [nlight, 1],
            light_bulbradius:      float   [nlight, 1],
            light_active:          byte    [nlight, 1],
            light_pos:             num     [nlight, 3],
            light_dir:             num     [nlight, 3],
            light_poscom0:         num     [nlight, 3],
            light_pos0:            num     [nlight, 3],
            light_dir0:            num     [nlight, 3],
            light_attenuation:     float   [nlight, 3],
            light_cutoff:          float   [nlight, 1],
            light_exponent:        float   [nlight, 1],
            light_ambient:         float   [nlight, 3],
            light_diffuse:         float   [nlight, 3],
            light_specular:        float   [nlight, 3],
            flex_contype:          int     [nflex, 1],
            flex_conaffinity:      int     [nflex, 1],
            flex_condim:           int     [nflex, 1],
            flex_priority:         int     [nflex, 1],
            flex_solmix:           num     [nflex, 1],
            flex_solref:           num     [nflex, (NREF)],
            flex_solimp:           num     [nflex, (NIMP)],
            flex_friction:         num     [nflex, 3],
            flex_margin:           num     [nflex, 1],
            flex_gap:              num     [nflex, 1],
            flex_internal:         byte    [nflex, 1],
            flex_selfcollide:      int     [nflex, 1],
            flex_activelayers:     int     [nflex, 1],
            flex_dim:              int     [nflex, 1],
            flex_matid:            int     [nflex, 1],
            flex_group:            int     [nflex, 1],
            flex_vertadr:          int     [nflex, 1],
            flex_vertnum:          int     [nflex, 1],
            flex_edgeadr:          int     [nflex, 1],
            flex_edgenum:          int     [nflex, 1],
            flex_elemadr:          int     [nflex, 1],
            flex_elemnum:          int     [nflex, 1],
            flex_elemdataadr:      int     [nflex, 1],
            flex_shellnum:         int     [nflex, 1],
            flex_shelldataadr:     int     [nflex, 1],
            flex_evpairadr:        int     [nflex, 1],
            flex_evpairnum:        int     [nflex, 1],
            flex_texcoordadr:      int     [nflex, 1],
            flex_vertbodyid:       int     [nflexvert, 1],
            flex_edge:             int     [nflexedge, 2],
            flex_elem:             int     [nflexelemdata, 1],
            flex_elemlayer:        int     [nflexelem, 1],
            flex_shell:            int     [nflexshelldata, 1],
            flex_evpair:           int     [nflexevpair, 2],
            flex_vert:             num     [nflexvert, 3],
            flex_xvert0:           num     [nflexvert, 3],
            flexedge_length0:      num     [nflexedge, 1],
            flexedge_invweight0:   num     [nflexedge, 1],
            flex_radius:           num     [nflex, 1],
            flex_edgestiffness:    num     [nflex, 1],
            flex_edgedamping:      num     [nflex, 1],
            flex_edgeequality:     byte    [nflex, 1],
            flex_rigid:            byte    [nflex, 1],
            flexedge_rigid:        byte    [nflexedge, 1],
            flex_centered:         byte    [nflex, 1],
            flex_flatskin:         byte    [nflex, 1],
            flex_bvhadr:           int     [nflex, 1],
            flex_bvhnum:           int     [nflex, 1],
            flex_rgba:             float   [nflex, 4],
            flex_texcoord:         float   [nflextexcoord, 2],
            mesh_vertadr:          int     [nmesh, 1],
            mesh_vertnum:          int     [nmesh, 1],
            mesh_normaladr:        int     [nmesh, 1],
            mesh_normalnum:        int     [nmesh, 1],
            mesh_texcoordadr:      int     [nmesh, 1],
            mesh_texcoordnum:      int     [nmesh, 1],
            mesh_faceadr:          int     [nmesh, 1],
            mesh_facenum:          int     [nmesh, 1],
            mesh_bvhadr:           int     [nmesh, 1],
            mesh_bvhnum:           int     [nmesh, 1],
            mesh_graphadr:         int     [nmesh, 1],
            mesh_scale:            num     [nmesh, 3],
            mesh_pos:              num     [nmesh, 3],
            mesh_quat:             num     [nmesh, 4],
            mesh_vert:             float   [nmeshvert, 3],
            mesh_normal:           float   [nmeshnormal, 3],
            mesh_texcoord:         float   [nmeshtexcoord, 2],
            mesh_face:             int     [nmeshface, 3],
            mesh_facenormal:       int     [nmeshface, 3],
            mesh_facetexcoord:     int     [nmeshface, 3],
            mesh_graph:            int     [nmeshgraph, 1],
            mesh_pathadr:          int     [nmesh, 1],
            skin_matid:            int     [nskin, 1],
            skin_group:            int     [nskin, 1],
            skin_rgba:             float   [nskin, 4],
            skin_inflate:          float   [nskin, 1],
            skin_vertadr:          int     [nskin, 1],
            skin_vertnum:          int     [nskin, 1],
            skin_texcoordadr:      int     [nskin, 1],
            skin_faceadr:          int     [nskin, 1],
            skin_facenum:          int     [nskin, 1],
            skin_boneadr:          int     [nskin, 1],
            skin_bonenum:          int     [nskin, 1],
            skin_vert:             float   [nskinvert, 3],
            skin_texcoord:         float   [nskintexvert, 2],
            skin_face:             int     [nskinface, 3],
            skin_bonevertadr:      int     [nskinbone, 1],
            skin_bonevertnum:      int     [nskinbone, 1],
            skin_bonebindpos:      float   [nskinbone, 3],
            skin_bonebindquat:     float   [nskinbone, 4],
            skin_bonebodyid:       int     [nskinbone, 1],
            skin_bonevertid:       int     [nskinbonevert, 1],
            skin_bonevertweight:   float   [nskinbonevert, 1],
            skin_pathadr:          int     [nskin, 1],
            hfield_size:           num     [nhfield, 4],
            hfield_nrow:           int     [nhfield, 1],
            hfield_ncol:           int     [nhfield, 1],
            hfield_adr:            int     [nhfield, 1],
            hfield_data:           float   [nhfielddata, 1],
            hfield_pathadr:        int     [nhfield, 1],
            tex_type:              int     [ntex, 1],
            tex_height:            int     [ntex, 1],
            tex_width:             int     [ntex, 1],
            tex_adr:               int     [ntex, 1],
            tex_rgb:               byte    [ntexdata, 1],
            tex_pathadr:           int     [ntex, 1],
            mat_texid:             int     [nmat, 1],
            mat_texuniform:        byte    [nmat, 1],
            mat_texrepeat:         float   [nmat, 2],
            mat_emission:          float   [nmat, 1],
            mat_specular:          float   [nmat, 1],
            mat_shininess:         float   [nmat, 1],
            mat_reflectance:       float   [nmat, 1],
            mat_metallic:          float   [nmat, 1],
            mat_roughness:         float   [nmat, 1],
            mat_rgba:              float   [nmat, 4],
            pair_dim:              int     [npair, 1],
            pair_geom1:            int     [npair, 1],
            pair_geom2:            int     [npair, 1],
            pair_signature:        int     [npair, 1],
            pair_solref:           num     [npair, (NREF)],
            pair_solreffriction:   num     [npair, (NREF)],
            pair_solimp:           num     [npair, (NIMP)],
            pair_margin:           num     [npair, 1],
            pair_gap:              num     [npair, 1],
            pair_friction:         num     [npair, 5],
            exclude_signature:     int     [nexclude, 1],
            eq_type:               int     [neq, 1],
            eq_obj1id:             int     [neq, 1],
            eq_obj2id:             int     [neq, 1],
            eq_active0:            byte    [neq, 1],
            eq_solref:             num     [neq, (NREF)],
            eq_solimp:             num     [neq, (NIMP)],
            eq_data:               num     [neq, (NEQDATA)],
            tendon_adr:            int     [ntendon, 1],
            tendon_num:            int     [ntendon, 1],
            tendon_matid:          int     [ntendon, 1],
            tendon_group:          int     [ntendon, 1],
            tendon_limited:        byte    [ntendon, 1],
            tendon_width:          num     [ntendon, 1],
            tendon_solref_lim:     num     [ntendon, (NREF)],
            tendon_solimp_lim:     num     [ntendon, (NIMP)],
            tendon_solref_fri:     num     [ntendon, (NREF)],
            tendon_solimp_fri:     num     [ntendon, (NIMP)],
            tendon_range:          num     [ntendon, 2],
            tendon_margin:         num     [ntendon, 1],
            tendon_stiffness:      num     [ntendon, 1],
            tendon_damping:        num     [ntendon, 1],
            tendon_frictionloss:   num     [ntendon, 1],
            tendon_lengthspring:   num     [ntendon, 2],
            tendon_length0:        num     [ntendon, 1],
            tendon_invweight0:     num     [ntendon, 1],
            tendon_user:           num     [ntendon, nuser_tendon],
            tendon_rgba:           float   [ntendon, 4],
            wrap_type:             int     [nwrap, 1],
            wrap_objid:            int     [nwrap, 1],
            wrap_prm:              num     [nwrap, 1],
            actuator_trntype:      int     [nu, 1],
            actuator_dyntype:      int     [nu, 1],
            actuator_gaintype:     int     [nu, 1],
            actuator_biastype:     int     [nu, 1],
            actuator_trnid:        int     [nu, 2],
            actuator_actadr:       int     [nu, 1],
            actuator_actnum:       int     [nu, 1],
            actuator_group:        int     [nu, 1],
            actuator_ctrllimited:  byte    [nu, 1],
            actuator_forcelimited: byte    [nu, 1],
            actuator_actlimited:   byte    [nu, 1],
            actuator_dynprm:       num     [nu, (NDYN)],
            actuator_gainprm:      num     [nu, (NGAIN)],
            actuator_biasprm:      num     [nu, (NBIAS)],
            actuator_actearly:     byte    [nu, 1],
            actuator_ctrlrange:    num     [nu, 2],
            actuator_forcerange:   num     [nu, 2],
            actuator_actrange:     num     [nu, 2],
            actuator_gear:         num     [nu, 6],
            actuator_cranklength:  num     [nu, 1],
            actuator_acc0:         num     [nu, 1],
            actuator_length0:      num     [nu, 1],
            actuator_lengthrange:  num     [nu, 2],
            actuator_user:         num     [nu, nuser_actuator],
            actuator_plugin:       int     [nu, 1],
            sensor_type:           int     [nsensor, 1],
            sensor_datatype:       int     [nsensor, 1],
            sensor_needstage:      int     [nsensor, 1],
            sensor_objtype:        int     [nsensor, 1],
            sensor_objid:          int     [nsensor, 1],
            sensor_reftype:        int     [nsensor, 1],
            sensor_refid:          int     [nsensor, 1],
            sensor_dim:            int     [nsensor, 1],
            sensor_adr:            int     [nsensor, 1],
            sensor_cutoff:         num     [nsensor, 1],
            sensor_noise:          num     [nsensor, 1],
            sensor_user:           num     [nsensor, nuser_sensor],
            sensor_plugin:         int     [nsensor, 1],
            plugin:                int     [nplugin, 1],
            plugin_stateadr:       int     [nplugin, 1],
            plugin_statenum:       int     [nplugin, 1],
            plugin_attr:           char    [npluginattr, 1],
            plugin_attradr:        int     [nplugin, 1],
            numeric_adr:           int     [nnumeric, 1],
            numeric_size:          int     [nnumeric, 1],
            numeric_data:          num     [nnumericdata, 1],
            text_adr:              int     [ntext, 1],
            text_size:             int     [ntext, 1],
            text_data:             char    [ntextdata, 1],
            tuple_adr:             int     [ntuple, 1],
            tuple_size:            int     [ntuple, 1],
            tuple_objtype:         int     [ntupledata, 1],
            tuple_objid:           int     [ntupledata, 1],
            tuple_objprm:          num     [ntupledata, 1],
            key_time:              num     [nkey, 1],
            key_qpos:              num     [nkey, nq],
            key_qvel:              num     [nkey, nv],
            key_act:               num     [nkey, na],
            key_mpos:              num     [nkey, nmocap * 3],
            key_mquat:             num     [nkey, nmocap * 4],
            key_ctrl:              num     [nkey, nu],
            name_bodyadr:          int     [nbody, 1],
            name_jntadr:           int     [njnt, 1],
            name_geomadr:          int     [ngeom, 1],
            name_siteadr:          int     [nsite, 1],
            name_camadr:           int     [ncam, 1],
            name_lightadr:         int     [nlight, 1],
            name_flexadr:          int     [nflex, 1],
            name_meshadr:          int     [nmesh, 1],
            name_skinadr:          int     [nskin, 1],
            name_hfieldadr:        int     [nhfield, 1],
            name_texadr:           int     [ntex, 1],
            name_matadr:           int     [nmat, 1],
            name_pairadr:          int     [npair, 1],
            name_excludeadr:       int     [nexclude, 1],
            name_eqadr:            int     [neq, 1],
            name_tendonadr:        int     [ntendon, 1],
            name_actuatoradr:      int     [nu, 1],
            name_sensoradr:        int     [nsensor, 1],
            name_numericadr:       int     [nnumeric, 1],
            name_textadr:          int     [ntext, 1],
            name_tupleadr:         int     [ntuple, 1],
            name_keyadr:           int     [nkey, 1],
            name_pluginadr:        int     [nplugin, 1],
            names:                 char    [nnames, 1],
            names_map:             int     [nnames_map, 1],
            paths:                 char    [npaths, 1],
        }
    };
}

/// Every fixed-size `mjData` array (`MJDATA_POINTERS`), in MuJoCo's order; lengths use model sizes.
#[macro_export]
macro_rules! mjdata_arrays {
    ($cb:ident) => {
        $cb! {
            qpos:              num     [nq, 1],
            qvel:              num     [nv, 1],
            act:               num     [na, 1],
            qacc_warmstart:    num     [nv, 1],
            plugin_state:      num     [npluginstate, 1],
            ctrl:              num     [nu, 1],
            qfrc_applied:      num     [nv, 1],
            xfrc_applied:      num     [nbody, 6],
            eq_active:         byte    [neq, 1],
            mocap_pos:         num     [nmocap, 3],
            mocap_quat:        num     [nmocap, 4],
            qacc:              num     [nv, 1],
            act_dot:           num     [na, 1],
            userdata:          num     [nuserdata, 1],
            sensordata:        num     [nsensordata, 1],
            plugin:            int     [nplugin, 1],
            plugin_data:       ptr     [nplugin, 1],
            xpos:              num     [nbody, 3],
            xquat:             num     [nbody, 4],
            xmat:              num     [nbody, 9],
            xipos:             num     [nbody, 3],
            ximat:             num     [nbody, 9],
            xanchor:           num     [njnt, 3],
            xaxis:             num     [njnt, 3],
            geom_xpos:         num     [ngeom, 3],
            geom_xmat:         num     [ngeom, 9],
            site_xpos:         num     [nsite, 3],
            site_xmat:         num     [nsite, 9],
            cam_xpos:          num     [ncam, 3],
            cam_xmat:          num     [ncam, 9],
            light_xpos:        num     [nlight, 3],
            light_xdir:        num     [nlight, 3],
            subtree_com:       num     [nbody, 3],
            cdof:              num     [nv, 6],
            cinert:            num     [nbody, 10],
            flexvert_xpos:     num     [nflexvert, 3],
            flexelem_aabb:     num     [nflexelem, 6],
            flexedge_J_rownnz: int     [nflexedge, 1],
            flexedge_J_rowadr: int     [nflexedge, 1],
            flexedge_J_colind: int     [nflexedge, nv],
            flexedge_J:        num     [nflexedge, nv],
            flexedge_length:   num     [nflexedge, 1],
            ten_wrapadr:       int     [ntendon, 1],
            ten_wrapnum:       int     [ntendon, 1],
            ten_J_rownnz:      int     [ntendon, 1],
            ten_J_rowadr:      int     [ntendon, 1],
            ten_J_colind:      int     [ntendon, nv],
            ten_length:        num     [ntendon, 1],
            ten_J:             num     [ntendon, nv],
            wrap_obj:          int     [nwrap, 2],
            wrap_xpos:         num     [nwrap, 6],
            actuator_length:   num     [nu, 1],
            actuator_moment:   num     [nu, nv],
            crb:               num     [nbody, 10],
            qM:                num     [nM, 1],
            qLD:               num     [nM, 1],
            qLDiagInv:         num     [nv, 1],
            qLDiagSqrtInv:     num     [nv, 1],
            bvh_aabb_dyn:      num     [nbvhdynamic, 6],
            bvh_active:        byte    [nbvh, 1],
            flexedge_velocity: num     [nflexedge, 1],
            ten_velocity:      num     [ntendon, 1],
            actuator_velocity: num     [nu, 1],
            cvel:              num     [nbody, 6],
            cdof_dot:          num     [nv, 6],
            qfrc_bias:         num     [nv, 1],
            qfrc_spring:       num     [nv, 1],
            qfrc_damper:       num     [nv, 1],
            qfrc_gravcomp:     num     [nv, 1],
            qfrc_fluid:        num     [nv, 1],
            qfrc_passive:      num     [nv, 1],
            subtree_linvel:    num     [nbody, 3],
            subtree_angmom:    num     [nbody, 3],
            qH:                num     [nM, 1],
            qHDiagInv:         num     [nv, 1],
            D_rownnz:          int     [nv, 1],
            D_rowadr:          int     [nv, 1],
            D_colind:          int     [nD, 1],
            B_rownnz:          int     [nbody, 1],
            B_rowadr:          int     [nbody, 1],
            B_colind:          int     [nB, 1],
            qDeriv:            num     [nD, 1],
            qLU:               num     [nD, 1],
            actuator_force:    num     [nu, 1],
            qfrc_actuator:     num     [nv, 1],
            qfrc_smooth:       num     [nv, 1],
            qacc_smooth:       num     [nv, 1],
            qfrc_constraint:   num     [nv, 1],
            qfrc_inverse:      num     [nv, 1],
            cacc:              num     [nbody, 6],
            cfrc_int:          num     [nbody, 6],
            cfrc_ext:          num     [nbody, 6],
        }
    };
}

/// The `mjData` arrays that live in the arena and change size every step
/// (`MJDATA_ARENA_POINTERS`): contacts, constraint rows, islands.
#[macro_export]
macro_rules! mjdata_arena_arrays {
    ($cb:ident) => {
        $cb! {
            contact:          contact [ncon, 1],
            efc_type:         int     [nefc, 1],
            efc_id:           int     [nefc, 1],
            efc_J_rownnz:     int     [nefc, 1],
            efc_J_rowadr:     int     [nefc, 1],
            efc_J_rowsuper:   int     [nefc, 1],
            efc_J_colind:     int     [nnzJ, 1],
            efc_JT_rownnz:    int     [nv, 1],
            efc_JT_rowadr:    int     [nv, 1],
            efc_JT_rowsuper:  int     [nv, 1],
            efc_JT_colind:    int     [nnzJ, 1],
            efc_J:            num     [nnzJ, 1],
            efc_JT:           num     [nnzJ, 1],
            efc_pos:          num     [nefc, 1],
            efc_margin:       num     [nefc, 1],
            efc_frictionloss: num     [nefc, 1],
            efc_diagApprox:   num     [nefc, 1],
            efc_KBIP:         num     [nefc, 4],
            efc_D:            num     [nefc, 1],
            efc_R:            num     [nefc, 1],
            tendon_efcadr:    int     [ntendon, 1],
            efc_vel:          num     [nefc, 1],
            efc_aref:         num     [nefc, 1],
            efc_b:            num     [nefc, 1],
            efc_force:        num     [nefc, 1],
            efc_state:        int     [nefc, 1],
            efc_AR_rownnz:    int     [nefc, 1],
            efc_AR_rowadr:    int     [nefc, 1],
            efc_AR_colind:    int     [nefc, nefc],
            efc_AR:           num     [nefc, nefc],
            dof_island:       int     [nv, 1],
            island_dofnum:    int     [nisland, 1],
            island_dofadr:    int     [nisland, 1],
            island_dofind:    int     [nv, 1],
            dof_islandind:    int     [nv, 1],
            efc_island:       int     [nefc, 1],
            island_efcnum:    int     [nisland, 1],
            island_efcadr:    int     [nisland, 1],
            island_efcind:    int     [nefc, 1],
        }
    };
}

/// The Rust element type of a table `ctype`.
#[macro_export]
macro_rules! mj_type {
    (num) => {
        $crate::Real
    };
    (float) => {
        f32
    };
    (int) => {
        i32
    };
    (byte) => {
        u8
    };
    (char) => {
        u8
    };
    (ptr) => {
        u64
    };
    (contact) => {
        $crate::records::Contact
    };
}

/// The [`Kind`] of a table `ctype`.
#[macro_export]
macro_rules! mj_kind {
    (num) => {
        $crate::layout::Kind::Num
    };
    (float) => {
        $crate::layout::Kind::Float
    };
    (int) => {
        $crate::layout::Kind::Int
    };
    (byte) => {
        $crate::layout::Kind::Byte
    };
    (char) => {
        $crate::layout::Kind::Char
    };
    (ptr) => {
        $crate::layout::Kind::Ptr
    };
    (contact) => {
        $crate::layout::Kind::Struct
    };
}

/// Evaluates a table `cols` entry against a sizes struct `$s`; `None` on overflow.
#[macro_export]
macro_rules! mj_cols {
    ($s:expr; $n:literal) => {
        Some::<usize>($n)
    };
    ($s:expr; ($c:ident)) => {
        Some::<usize>($crate::types::$c)
    };
    ($s:expr; $f:ident) => {
        Some::<usize>($s.$f)
    };
    ($s:expr; $f:ident * $k:literal) => {
        $s.$f.checked_mul($k)
    };
}

/// Whether a table `cols` entry makes a matrix (anything but the literal `1`).
#[macro_export]
macro_rules! mj_is_matrix {
    (1) => {
        false
    };
    ($($t:tt)+) => {
        true
    };
}

/// Elements of a `rows x cols` field; `None` when `cols` overflowed or the product overflows.
pub fn field_len(rows: usize, cols: Option<usize>) -> Option<usize> {
    rows.checked_mul(cols?)
}

/// The C element type of a field, which decides its width in an MJB file and its JSON form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `mjtNum`: [`Real`](crate::Real) in memory, `sizeof(mjtNum)` bytes (from the MJB header) in a file.
    Num,
    /// `float`: `f32`.
    Float,
    /// `int`: `i32`.
    Int,
    /// `mjtByte`: `u8`.
    Byte,
    /// `char`: `u8` in memory; MuJoCo's Python bindings show it as `int8`.
    Char,
    /// `uintptr_t`: `u64`.
    Ptr,
    /// A struct of several fields (`mjContact`).
    Struct,
}

impl Kind {
    /// Bytes of one element in memory (this build's [`Real`](crate::Real) for `Num`).
    pub fn mem_bytes(self) -> usize {
        use core::mem::size_of;
        match self {
            Kind::Num => size_of::<crate::Real>(),
            Kind::Float => size_of::<f32>(),
            Kind::Int => size_of::<i32>(),
            Kind::Byte | Kind::Char => size_of::<u8>(),
            Kind::Ptr => size_of::<u64>(),
            Kind::Struct => size_of::<crate::records::Contact>(),
        }
    }

    /// Alignment of one element in memory.
    pub fn mem_align(self) -> usize {
        use core::mem::align_of;
        match self {
            Kind::Num => align_of::<crate::Real>(),
            Kind::Float => align_of::<f32>(),
            Kind::Int => align_of::<i32>(),
            Kind::Byte | Kind::Char => align_of::<u8>(),
            Kind::Ptr => align_of::<u64>(),
            Kind::Struct => align_of::<crate::records::Contact>(),
        }
    }
}

/// What a visitor learns about one field of the table.
#[derive(Clone, Copy, Debug)]
pub struct FieldInfo {
    /// MuJoCo's field name.
    pub name: &'static str,
    /// C element type.
    pub kind: Kind,
    /// Number of rows (the size named in the table, evaluated).
    pub rows: usize,
    /// Number of columns.
    pub cols: usize,
    /// `false` for a vector (`cols` is the literal 1), `true` for a matrix.
    pub matrix: bool,
}

impl FieldInfo {
    /// Number of elements, `rows * cols`.
    pub fn len(&self) -> usize {
        self.rows * self.cols
    }

    /// Whether the field has no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// One element of a table array as a plain number, the common currency of the MJB codec, the
/// JSON dumps and comparisons.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    /// An integer element (`int`, `mjtByte`, `char`, `uintptr_t`).
    Int(i64),
    /// A floating-point element (`mjtNum`, `float`).
    Real(f64),
}

/// Element types that appear in the table's arrays.
pub trait Elem: crate::pod::Pod + PartialEq + core::fmt::Debug {
    /// The element as a [`Scalar`].
    fn to_scalar(self) -> Scalar;
    /// The element from a [`Scalar`] (floats convert to the element's precision; integers
    /// outside the element's range wrap, which the MJB reader never asks for).
    fn from_scalar(s: Scalar) -> Self;
}

macro_rules! elem_int {
    ($($t:ty),*) => {$(
        #[allow(clippy::cast_lossless)] // one body for several widths
        impl Elem for $t {
            fn to_scalar(self) -> Scalar {
                Scalar::Int(self as i64)
            }
            fn from_scalar(s: Scalar) -> Self {
                match s {
                    Scalar::Int(i) => i as $t,
                    Scalar::Real(r) => r as $t,
                }
            }
        }
    )*};
}
elem_int!(u8, i32, u64);

macro_rules! elem_float {
    ($($t:ty),*) => {$(
        #[allow(clippy::cast_lossless)] // one body for several widths
        impl Elem for $t {
            fn to_scalar(self) -> Scalar {
                Scalar::Real(self as f64)
            }
            fn from_scalar(s: Scalar) -> Self {
                match s {
                    Scalar::Int(i) => i as $t,
                    Scalar::Real(r) => r as $t,
                }
            }
        }
    )*};
}
elem_float!(f32, f64);

/// The most elements of one field of an option struct (`mjOption`, `mjVisual`, ...; 5 in
/// MuJoCo 3.1.6, checked where the structs are defined): each field passes through a buffer
/// of this many [`Scalar`]s, which a load fills for every field.
pub(crate) const MAX_STRUCT_FIELD: usize = 8;

/// Calls `f(name, kind, values)` with the field `src` of an option struct as [`Scalar`]s. One
/// call per field, not inlined: the structs' `for_each` is one call per field, not a copy of
/// this body.
#[inline(never)]
pub fn scalars_of<T: Elem>(
    name: &'static str,
    kind: Kind,
    src: &[T],
    f: &mut dyn FnMut(&'static str, Kind, &[Scalar]),
) {
    let mut s = [Scalar::Int(0); MAX_STRUCT_FIELD];
    for (d, x) in s.iter_mut().zip(src) {
        *d = x.to_scalar();
    }
    f(name, kind, &s[..src.len().min(MAX_STRUCT_FIELD)]);
}

/// What fills the values of one option-struct field: `f(name, kind, values)`.
pub type FillScalars<'f, E> = dyn FnMut(&'static str, Kind, &mut [Scalar]) -> Result<(), E> + 'f;

/// Sets the field `dst` of an option struct from `f(name, kind, values)`, which fills one
/// [`Scalar`] per element; not inlined, as [`scalars_of`].
#[inline(never)]
pub fn fill_from_scalars<T: Elem, E>(
    name: &'static str,
    kind: Kind,
    dst: &mut [T],
    f: &mut FillScalars<'_, E>,
) -> Result<(), E> {
    let mut s = [Scalar::Int(0); MAX_STRUCT_FIELD];
    f(name, kind, &mut s[..dst.len().min(MAX_STRUCT_FIELD)])?;
    for (d, x) in dst.iter_mut().zip(&s) {
        *d = T::from_scalar(*x);
    }
    Ok(())
}

/// Fills the fields of an option struct, one call per field with the field's own type: MJB
/// reading decodes a field's bytes straight into it (as it does an array), with no
/// [`Scalar`] in between.
pub trait StructFieldsMut {
    /// Why filling stopped.
    type Error;
    /// Called once per field, in C order, with the field as a slice (one element for a
    /// scalar field).
    fn field<T: Elem>(
        &mut self,
        name: &'static str,
        kind: Kind,
        dst: &mut [T],
    ) -> Result<(), Self::Error>;
}

/// [`StructFieldsMut`] from `f(name, kind, values)`, which fills one [`Scalar`] per element
/// (the structs' `try_fill`).
pub struct ScalarFill<F, E>(pub F, pub core::marker::PhantomData<E>);

impl<F, E> StructFieldsMut for ScalarFill<F, E>
where
    F: FnMut(&'static str, Kind, &mut [Scalar]) -> Result<(), E>,
{
    type Error = E;

    fn field<T: Elem>(&mut self, name: &'static str, kind: Kind, dst: &mut [T]) -> Result<(), E> {
        fill_from_scalars(name, kind, dst, &mut self.0)
    }
}

/// Walks arrays read-only: the JSON dumps, comparisons, MJB writing.
pub trait ArrayVisitor {
    /// Called once per array, in table order.
    fn array<T: Elem>(&mut self, info: &FieldInfo, data: &[T]);
}

/// Walks arrays for writing: MJB reading.
pub trait ArrayVisitorMut {
    /// Called once per array, in table order.
    fn array<T: Elem>(&mut self, info: &FieldInfo, data: &mut [T]);
}
