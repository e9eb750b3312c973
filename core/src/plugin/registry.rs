//! The global plugin table (`mjp_registerPlugin`, `mjp_getPlugin`, `mjp_getPluginAtSlot`,
//! `mjp_pluginCount`) in static slots: no heap, no lock held while reading.
//!
//! Each slot is a write-once cell ([`Once`]); slots are never freed.

use super::once::Once;
use super::Plugin;

/// Number of slots: the first-party ones and room for user plugins.
pub const MAX_PLUGINS: usize = 64;

/// The first-party plugins at their fixed slots: the order in which MuJoCo 3.1.6's Python
/// package registers its bundled libraries (sdf, actuator, elasticity, sensor), so that MJB
/// files written by it name the same slots.
pub const FIRST_PARTY: [&str; 12] = [
    "mujoco.sdf.bolt",
    "mujoco.sdf.bowl",
    "mujoco.sdf.gear",
    "mujoco.sdf.nut",
    "mujoco.sdf.torus",
    "mujoco.sdf.sdflib",
    "mujoco.pid",
    "mujoco.elasticity.cable",
    "mujoco.elasticity.membrane",
    "mujoco.elasticity.shell",
    "mujoco.elasticity.solid",
    "mujoco.sensor.touch_grid",
];

type Slot = Once<&'static dyn Plugin>;

#[allow(clippy::declare_interior_mutable_const)] // only to initialise the array below
const NEW_SLOT: Slot = Once::new();
static SLOTS: [Slot; MAX_PLUGINS] = [NEW_SLOT; MAX_PLUGINS];

/// Why [`register_plugin`] refused a plugin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum RegisterError {
    /// Another plugin with the same name is registered (MuJoCo: "plugin '...' is already
    /// registered" when the two differ).
    AlreadyRegistered,
    /// The plugin has an empty name.
    NoName,
    /// All [`MAX_PLUGINS`] slots are taken.
    Full,
}

impl core::fmt::Display for RegisterError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            RegisterError::AlreadyRegistered => {
                f.write_str("a different plugin with this name is already registered")
            }
            RegisterError::NoName => f.write_str("plugin->name is a null pointer"),
            RegisterError::Full => write!(f, "all {MAX_PLUGINS} plugin slots are taken"),
        }
    }
}

impl core::error::Error for RegisterError {}

/// Same plugin object: registering one twice is allowed, as MuJoCo allows an identical one.
fn same(a: &dyn Plugin, b: &dyn Plugin) -> bool {
    core::ptr::addr_eq(a as *const dyn Plugin, b as *const dyn Plugin)
}

/// `mjp_registerPlugin`: registers `p` and returns its slot. A first-party name goes to its
/// fixed slot; any other name to the first free slot after them. Registering the same object
/// again returns its slot.
pub fn register_plugin(p: &'static dyn Plugin) -> Result<usize, RegisterError> {
    let name = p.name();
    if name.is_empty() {
        return Err(RegisterError::NoName);
    }
    let existing = |slot: usize, q: &'static dyn Plugin| {
        if same(q, p) {
            Ok(slot)
        } else {
            Err(RegisterError::AlreadyRegistered)
        }
    };
    if let Some(slot) = FIRST_PARTY.iter().position(|n| *n == name) {
        if SLOTS[slot].claim(p) {
            return Ok(slot);
        }
        let q = SLOTS[slot].settled().ok_or(RegisterError::Full)?;
        return existing(slot, q);
    }
    for (slot, s) in SLOTS.iter().enumerate().skip(FIRST_PARTY.len()) {
        match s.settled() {
            Some(q) if q.name() == name => return existing(slot, q),
            Some(_) => continue,
            None => {
                if s.claim(p) {
                    return Ok(slot);
                }
                // lost a race for this slot: look at what was put there
                if let Some(q) = s.settled() {
                    if q.name() == name {
                        return existing(slot, q);
                    }
                }
            }
        }
    }
    Err(RegisterError::Full)
}

/// `mjp_pluginCount`: one past the highest registered slot (slots below it may be empty on
/// a device that registers only some first-party plugins).
pub fn plugin_count() -> usize {
    SLOTS
        .iter()
        .rposition(|s| s.get().is_some())
        .map_or(0, |i| i + 1)
}

/// `mjp_getPluginAtSlot`: the plugin at `slot`, if one is registered there.
pub fn get_plugin_at_slot(slot: usize) -> Option<&'static dyn Plugin> {
    SLOTS.get(slot)?.get()
}

/// `mjp_getPlugin`: the registered plugin named `name` and its slot.
pub fn get_plugin(name: &str) -> Option<(usize, &'static dyn Plugin)> {
    SLOTS
        .iter()
        .enumerate()
        .find_map(|(slot, s)| s.get().filter(|p| p.name() == name).map(|p| (slot, p)))
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Named(&'static str);
    impl Plugin for Named {
        fn name(&self) -> &'static str {
            self.0
        }
    }

    static A: Named = Named("test.registry.a");
    static A2: Named = Named("test.registry.a");
    static NUT: Named = Named("mujoco.sdf.nut");
    static NONAME: Named = Named("");

    #[test]
    fn first_party_names_take_their_fixed_slot() {
        assert_eq!(register_plugin(&NUT), Ok(3));
        assert_eq!(get_plugin("mujoco.sdf.nut").map(|(s, _)| s), Some(3));
        assert!(plugin_count() >= 4);
    }

    #[test]
    fn same_object_twice_is_fine_a_different_one_is_refused() {
        let slot = register_plugin(&A).unwrap();
        assert!(slot >= FIRST_PARTY.len());
        assert_eq!(register_plugin(&A), Ok(slot));
        assert_eq!(register_plugin(&A2), Err(RegisterError::AlreadyRegistered));
        assert!(get_plugin_at_slot(slot).is_some());
        assert!(get_plugin_at_slot(MAX_PLUGINS).is_none());
        assert_eq!(register_plugin(&NONAME), Err(RegisterError::NoName));
    }
}
