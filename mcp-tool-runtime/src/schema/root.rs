//! A type's root schema, generated through one instantiation of schemars' root entry point
//! instead of one per type.
//!
//! `SchemaGenerator::into_root_schema_for::<T>` is generic, and each copy (with the title
//! closure, the id and the pending-schema bookkeeping it instantiates) is about 240 lines of LLVM
//! IR: for a crate of 100 tools, 48,000 lines, a fifth of what the tools cost to build. What it
//! needs of `T` is three functions, which every `JsonSchema` type has already compiled: its
//! name, its id and its schema. [`root_schema`] hands those to the one copy instantiated for
//! [`Erased`], whose `JsonSchema` impl answers with the functions of the type being generated.
//! The result is the schema `into_root_schema_for::<T>` writes, byte for byte: the same id
//! reaches the generator, so a type that refers to itself is still `{"$ref": "#"}`.

use std::borrow::Cow;
use std::cell::Cell;

use schemars::{JsonSchema, Schema, SchemaGenerator};

/// A type's three schema functions: all that its root schema needs of it, and all of it that
/// is generic. A generated tool's schema function writes them out itself (see
/// `private::call`), so its schemas instantiate no function of their own beyond the type's
/// `JsonSchema` impl.
#[derive(Clone, Copy)]
pub(crate) struct Functions {
    pub(crate) name: fn() -> Cow<'static, str>,
    pub(crate) id: fn() -> Cow<'static, str>,
    pub(crate) schema: fn(&mut SchemaGenerator) -> Schema,
}

/// The [`Functions`] of the type `$t`, written out where the type is named: a generic function
/// making them would be one more function per type to compile.
macro_rules! functions_of {
    ($t:ty) => {
        $crate::schema::Functions {
            name: <$t as ::schemars::JsonSchema>::schema_name,
            id: <$t as ::schemars::JsonSchema>::schema_id,
            schema: <$t as ::schemars::JsonSchema>::json_schema,
        }
    };
}
pub(crate) use functions_of;

thread_local! {
    static CURRENT: Cell<Option<Functions>> = const { Cell::new(None) };
}

fn current() -> Functions {
    CURRENT
        .get()
        .expect("Erased's schema functions run only within root_schema")
}

/// Stands for the type [`root_schema`] was called with.
struct Erased;

impl JsonSchema for Erased {
    fn schema_name() -> Cow<'static, str> {
        (current().name)()
    }

    fn schema_id() -> Cow<'static, str> {
        (current().id)()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        (current().schema)(generator)
    }
}

/// Puts back the functions of an enclosing generation (a schema function that itself generates a
/// root schema), also when a schema function panics.
struct Restore(Option<Functions>);

impl Drop for Restore {
    fn drop(&mut self) {
        CURRENT.set(self.0);
    }
}

/// `generator.into_root_schema_for::<T>()`, with nothing but three function pointers generic
/// over `T`.
pub(crate) fn root_schema<T: JsonSchema + ?Sized>(generator: SchemaGenerator) -> Schema {
    root_schema_with(generator, functions_of!(T))
}

/// [`root_schema`] of the type whose functions are given.
pub(crate) fn root_schema_with(generator: SchemaGenerator, functions: Functions) -> Schema {
    let _restore = Restore(CURRENT.replace(Some(functions)));
    generator.into_root_schema_for::<Erased>()
}

#[cfg(test)]
mod tests {
    use schemars::generate::SchemaSettings;

    use super::*;

    #[derive(schemars::JsonSchema)]
    #[allow(dead_code)]
    struct Node {
        label: String,
        children: Vec<Node>,
        leaf: Option<Leaf>,
    }

    #[derive(schemars::JsonSchema)]
    #[allow(dead_code)]
    struct Leaf {
        weight: f64,
    }

    /// Its schema function generates another root schema while the first is under way.
    struct Nested;

    impl JsonSchema for Nested {
        fn schema_name() -> Cow<'static, str> {
            "Nested".into()
        }

        fn json_schema(generator: &mut SchemaGenerator) -> Schema {
            let inner = root_schema::<Leaf>(SchemaGenerator::default());
            let mut schema = generator.subschema_for::<Node>();
            schema.insert("x-inner".into(), inner.to_value());
            schema
        }
    }

    fn each_setting() -> [SchemaSettings; 3] {
        [
            SchemaSettings::draft2020_12(),
            SchemaSettings::draft2020_12().for_serialize(),
            SchemaSettings::draft07().for_deserialize(),
        ]
    }

    #[test]
    fn the_schema_is_the_one_schemars_writes_for_the_type() {
        for settings in each_setting() {
            assert_eq!(
                root_schema::<Node>(settings.clone().into_generator()),
                settings
                    .clone()
                    .into_generator()
                    .into_root_schema_for::<Node>()
            );
            assert_eq!(
                root_schema::<Vec<Option<u32>>>(settings.clone().into_generator()),
                settings
                    .into_generator()
                    .into_root_schema_for::<Vec<Option<u32>>>()
            );
        }
    }

    #[test]
    fn a_type_that_refers_to_itself_refers_to_the_root() {
        let schema = root_schema::<Node>(SchemaGenerator::default()).to_value();
        assert_eq!(schema["properties"]["children"]["items"]["$ref"], "#");
        assert_eq!(schema["title"], "Node");
    }

    #[test]
    fn a_root_generated_within_another_leaves_the_outer_one_whole() {
        let nested = root_schema::<Nested>(SchemaGenerator::default());
        let expected = SchemaGenerator::default().into_root_schema_for::<Nested>();
        assert_eq!(nested, expected);
        let nested = nested.to_value();
        assert_eq!(nested["title"], "Nested");
        assert_eq!(nested["x-inner"]["title"], "Leaf");
    }

    #[test]
    fn a_panicking_schema_function_leaves_no_functions_behind() {
        struct Panics;
        impl JsonSchema for Panics {
            fn schema_name() -> Cow<'static, str> {
                "Panics".into()
            }
            fn json_schema(_: &mut SchemaGenerator) -> Schema {
                panic!("no schema")
            }
        }
        let outcome =
            std::panic::catch_unwind(|| root_schema::<Panics>(SchemaGenerator::default()));
        assert!(outcome.is_err());
        assert!(CURRENT.get().is_none());
    }
}
