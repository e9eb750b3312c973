//! Removing detached bodies from the arenas.

use std::collections::HashMap;

use super::Spec;

impl Spec {
    /// Drops the bodies that cannot be reached from the world (those detached from their
    /// parent, with their subtrees) and the frames declared in them, renumbering the rest.
    /// The order of what is kept does not change.
    pub fn prune_detached(&mut self) {
        let mut keep = vec![false; self.bodies.len()];
        let mut stack = vec![0usize];
        while let Some(b) = stack.pop() {
            keep[b] = true;
            stack.extend(&self.bodies[b].bodies);
        }
        let bmap = renumber(&keep);
        let fkeep: Vec<bool> = self.frames.iter().map(|f| keep[f.body]).collect();
        let fmap = renumber(&fkeep);
        let frame = |f: Option<usize>| f.map(|f| fmap[&f]);

        let mut i = 0;
        self.bodies.retain(|_| (keep[i], i += 1).0);
        let mut i = 0;
        self.frames.retain(|_| (fkeep[i], i += 1).0);
        for b in &mut self.bodies {
            b.parent = b.parent.map(|p| bmap[&p]);
            b.frame = frame(b.frame);
            b.bodies.iter_mut().for_each(|c| *c = bmap[c]);
            b.frames.iter_mut().for_each(|f| *f = fmap[f]);
            b.joints.iter_mut().for_each(|x| x.frame = frame(x.frame));
            b.geoms.iter_mut().for_each(|x| x.frame = frame(x.frame));
            b.sites.iter_mut().for_each(|x| x.frame = frame(x.frame));
            b.cameras.iter_mut().for_each(|x| x.frame = frame(x.frame));
            b.lights.iter_mut().for_each(|x| x.frame = frame(x.frame));
        }
        for f in &mut self.frames {
            f.body = bmap[&f.body];
            f.parent = frame(f.parent);
        }
    }
}

/// New indices of the kept entries.
fn renumber(keep: &[bool]) -> HashMap<usize, usize> {
    (0..keep.len())
        .filter(|&i| keep[i])
        .enumerate()
        .map(|(new, old)| (old, new))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::{Body, Frame, Spec};

    #[test]
    fn detached_bodies_and_their_frames_go() {
        let mut s = Spec::default();
        for parent in [0, 0, 2] {
            s.bodies.push(Body::new(Some(parent), 0));
        }
        s.bodies[0].bodies = vec![1, 3];
        s.bodies[1].bodies = vec![];
        s.bodies[2].bodies = vec![3];
        s.bodies[3].parent = Some(0);
        // body 2 is detached; body 3 hangs from the world
        s.frames.push(Frame::new(2, None, 0));
        s.frames.push(Frame::new(3, None, 0));
        s.frames.push(Frame::new(3, Some(1), 0));
        s.bodies[2].frames = vec![0];
        s.bodies[3].frames = vec![1, 2];
        s.bodies[3].frame = None;
        s.prune_detached();
        assert_eq!(s.bodies.len(), 3);
        assert_eq!(s.bodies[0].bodies, vec![1, 2]);
        assert_eq!(s.bodies[2].parent, Some(0));
        assert_eq!(s.bodies[2].frames, vec![0, 1]);
        assert_eq!(s.frames.len(), 2);
        assert_eq!((s.frames[0].body, s.frames[1].parent), (2, Some(0)));
    }
}
