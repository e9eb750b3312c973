//! Engine plugins back to MJCF (`mjXWriter::Extension`, `OnePlugin`): the plugins a model
//! uses with their named instances, and each element's reference to an instance.

use super::node::Node;
use crate::spec::{PluginRef, Spec};

/// `extension`: runs of consecutive named instances of one plugin under one `plugin` element
/// (so the instances keep their order, which numbers them), then the plugins used only through
/// implicit instances.
pub fn extension(s: &Spec) -> Node {
    let name_of = |slot: Option<usize>| {
        s.active_plugins
            .iter()
            .find(|(_, sl)| Some(*sl) == slot)
            .map(|(n, _)| n.as_str())
    };
    let mut section = Node::new("extension");
    let mut written: Vec<&str> = Vec::new();
    for (i, p) in s
        .plugins
        .iter()
        .enumerate()
        .filter(|(_, p)| !p.name.is_empty())
    {
        let Some(plugin) = name_of(p.slot).or_else(|| shared_plugin(s, i)) else {
            continue;
        };
        let same_run = section
            .children
            .last()
            .is_some_and(|last| last.attrs.iter().any(|(k, v)| k == "plugin" && v == plugin));
        if !same_run {
            let mut n = Node::new("plugin");
            n.set("plugin", plugin);
            section.children.push(n);
            written.push(plugin);
        }
        let mut instance = Node::new("instance");
        instance.set("name", p.name.as_str());
        configs(&mut instance, &p.config);
        section
            .children
            .last_mut()
            .expect("pushed above")
            .children
            .push(instance);
    }
    for (name, _) in &s.active_plugins {
        if !written.contains(&name.as_str()) {
            let mut n = Node::new("plugin");
            n.set("plugin", name.as_str());
            section.children.push(n);
        }
    }
    section
}

/// The plugin of implicit instance `i` when it has a name: the instance a flexcomp makes and
/// shares among its vertex bodies, written as a named instance that they refer to.
fn shared_plugin(s: &Spec, i: usize) -> Option<&str> {
    s.bodies
        .iter()
        .filter_map(|b| b.plugin.as_ref())
        .find(|r| r.implicit == Some(i) && !r.plugin.is_empty())
        .map(|r| r.plugin.as_str())
}

/// The `config` children of an instance.
fn configs(n: &mut Node, config: &std::collections::BTreeMap<String, String>) {
    for (key, value) in config {
        let mut c = Node::new("config");
        c.set("key", key.as_str());
        c.set("value", value.as_str());
        n.children.push(c);
    }
}

/// An element's reference on `n` itself (an actuator or sensor `plugin` element): the named
/// instance, or the plugin with the configuration of its implicit instance.
pub fn reference(n: &mut Node, r: &PluginRef, s: &Spec) {
    if !r.plugin.is_empty() {
        n.set("plugin", r.plugin.as_str());
    }
    if !r.instance.is_empty() {
        n.set("instance", r.instance.as_str());
    } else if let Some(p) = r.implicit.and_then(|i| s.plugins.get(i)) {
        if p.name.is_empty() {
            configs(n, &p.config);
        } else {
            n.set("instance", p.name.as_str());
        }
    }
}

/// A body's, geom's or mesh's reference, as its `plugin` child.
pub fn child(r: &PluginRef, s: &Spec) -> Node {
    let mut n = Node::new("plugin");
    reference(&mut n, r, s);
    n
}
