//! Engine plugins in MJCF (`mjXReader::Extension`, `OnePlugin`, `ReadPluginConfigs`): the
//! plugins a model may use and their named instances (`extension`), and the `plugin` children
//! and elements that refer to an instance or make one of their own.

use std::collections::BTreeMap;

use mjrs_core::plugin::{get_plugin, FIRST_PARTY};

use super::attr::{text, text_required};
use super::dom::Elem;
use super::{info, Reader};
use crate::error::XmlError;
use crate::spec::{PluginInstance, PluginRef};

/// The `config` children of `e`, key to value (`ReadPluginConfigs`).
fn configs(e: &Elem) -> Result<BTreeMap<String, String>, XmlError> {
    let mut config = BTreeMap::new();
    for c in e.children_named("config") {
        let key = text_required(c, "key")?;
        if config.contains_key(&key) {
            return Err(c.error(format!("duplicate config key: {key}")));
        }
        let value = text_required(c, "value")?;
        config.insert(key, value);
    }
    Ok(config)
}

impl Reader<'_> {
    /// `extension` section: every plugin named must be registered; its `instance` children are
    /// the model's first instances, in document order.
    pub(super) fn extension(&mut self, section: &Elem) -> Result<(), XmlError> {
        for e in section.children_named("plugin") {
            let name = text_required(e, "plugin")?;
            let Some((slot, _)) = get_plugin(&name) else {
                if FIRST_PARTY.contains(&name.as_str()) {
                    return Err(e.unsupported(format!(
                        "the plugin '{name}' (a MuJoCo plugin this build does not include)"
                    )));
                }
                return Err(e.error(format!("unknown plugin '{name}'")));
            };
            if !self.spec.active_plugins.iter().any(|(_, s)| *s == slot) {
                self.spec.active_plugins.push((name, slot));
            }
            for c in e.children_named("instance") {
                if self.named_instance_used {
                    return Err(c.error(
                        "explicit plugin instance must appear before implicit plugin elements",
                    ));
                }
                let name = text_required(c, "name")?;
                let config = configs(c)?;
                self.spec.plugins.push(PluginInstance {
                    name,
                    slot: Some(slot),
                    config,
                    info: info(e),
                });
            }
        }
        Ok(())
    }

    /// `OnePlugin`: an element's `plugin` reference. Without an `instance` attribute the
    /// element gets an implicit instance of its own, configured by the `config` children; with
    /// one, `config` children are ignored, as MuJoCo ignores them.
    pub(super) fn one_plugin(&mut self, e: &Elem) -> Result<PluginRef, XmlError> {
        let mut r = PluginRef {
            plugin: text(e, "plugin").unwrap_or_default(),
            instance: text(e, "instance").unwrap_or_default(),
            implicit: None,
        };
        if r.instance.is_empty() {
            r.implicit = Some(self.spec.plugins.len());
            let config = configs(e)?;
            self.spec.plugins.push(PluginInstance {
                config,
                ..PluginInstance::default()
            });
        } else {
            self.named_instance_used = true;
        }
        Ok(r)
    }
}
