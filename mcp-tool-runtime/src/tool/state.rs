//! [`State`]: what a toolbox holds for its tools, one value per type.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::Arc;

/// The state a toolbox holds for its tools, one value per type; tools take it as a
/// `#[state] name: &T` parameter.
///
/// ```
/// use mcp_tool_runtime::{mcp_tool, Toolbox};
///
/// struct Greeting(&'static str);
///
/// /// Greets someone.
/// #[mcp_tool]
/// fn greet(#[state] greeting: &Greeting, name: String) -> String {
///     format!("{}, {name}!", greeting.0)
/// }
///
/// let mut toolbox = Toolbox::new();
/// toolbox.insert_state(Greeting("Hello"));
/// toolbox.register(greet::tool()).unwrap();
/// ```
#[derive(Default, Clone)]
pub struct State {
    values: HashMap<TypeId, (Arc<dyn Any + Send + Sync>, &'static str)>,
}

impl std::fmt::Debug for State {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("State")
            .field("values", &self.values.len())
            .finish()
    }
}

impl State {
    pub(crate) fn insert<S: Any + Send + Sync>(&mut self, value: S) {
        self.values.insert(
            TypeId::of::<S>(),
            (Arc::new(value), std::any::type_name::<S>()),
        );
    }

    /// The value of type `S` that `owner` (`prompt \`review\``) needs, or `-32603` saying the
    /// toolbox holds none: for prompts, resources and completions, which answer with JSON-RPC
    /// errors.
    pub(crate) fn required<S: Any + Send + Sync>(
        &self,
        owner: impl std::fmt::Display,
    ) -> Result<&S, crate::ProtocolError> {
        self.get::<S>().ok_or_else(|| {
            crate::ProtocolError::internal(format!(
                "{owner} needs state of type `{}`, which its toolbox does not hold",
                std::any::type_name::<S>()
            ))
        })
    }

    /// Adds every value of `other`; a type both hold as different values is refused, by its
    /// name, and nothing is added.
    pub(crate) fn merge(&mut self, other: &State) -> Result<(), &'static str> {
        for (id, (value, name)) in &other.values {
            if let Some((mine, _)) = self.values.get(id)
                && !Arc::ptr_eq(mine, value)
            {
                return Err(name);
            }
        }
        for (id, entry) in &other.values {
            self.values.entry(*id).or_insert_with(|| entry.clone());
        }
        Ok(())
    }

    pub(crate) fn contains(&self, id: TypeId) -> bool {
        self.values.contains_key(&id)
    }

    /// The state of type `S`, if the toolbox holds one.
    pub fn get<S: Any + Send + Sync>(&self) -> Option<&S> {
        self.values.get(&TypeId::of::<S>())?.0.downcast_ref()
    }
}
