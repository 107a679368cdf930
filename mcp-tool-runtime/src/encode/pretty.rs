//! The text of a checked value: serde_json's pretty form (each line break and indent written at
//! once), or its compact form.

use serde::Serialize;
use serde_json::Value;

use super::checked::MAX_DEPTH;

/// Pretty-prints a value produced by [`to_checked_value`] (keys already sorted, depth bounded).
pub(crate) fn pretty(value: &Value) -> String {
    let mut bytes = Vec::with_capacity(FIRST_CAPACITY);
    let mut serializer = serde_json::Serializer::with_formatter(&mut bytes, Pretty::default());
    value
        .serialize(&mut serializer)
        .expect("a checked value always serializes");
    into_text(bytes)
}

/// The compact text of a checked value: no whitespace, keys as sorted; its spare capacity
/// given back like the pretty one's.
pub(crate) fn compact(value: &Value) -> String {
    let mut bytes = Vec::with_capacity(FIRST_CAPACITY);
    serde_json::to_writer(&mut bytes, value).expect("a checked value always serializes");
    into_text(bytes)
}

/// The buffer a text starts in: most results' text fits, so it is written without growing.
const FIRST_CAPACITY: usize = 512;

/// The most spare capacity a text keeps: below it, shrinking costs a reallocation a call to
/// give back less than a kilobyte.
const MAX_SPARE: usize = 1024;

/// The text serde_json wrote into `bytes`, its spare capacity given back if it grew past
/// [`MAX_SPARE`] by doubling: it lives until the response is written (for large texts the
/// allocator shrinks in place).
fn into_text(mut bytes: Vec<u8>) -> String {
    if bytes.capacity() - bytes.len() > MAX_SPARE {
        bytes.shrink_to_fit();
    }
    String::from_utf8(bytes).expect("serde_json writes UTF-8")
}

/// serde_json's pretty layout (`to_string_pretty`: two-space indent, `": "`), byte for byte,
/// writing each line break and its indentation in one write instead of one write per level.
#[derive(Default)]
struct Pretty {
    level: usize,
    has_value: bool,
}

/// A line break followed by enough indentation for every depth a checked value reaches.
const LINE: &[u8] = {
    const LEN: usize = 1 + 2 * (MAX_DEPTH + 8);
    let mut line = [b' '; LEN];
    line[0] = b'\n';
    &{ line }
};

impl Pretty {
    #[inline]
    fn line<W: ?Sized + std::io::Write>(&self, writer: &mut W) -> std::io::Result<()> {
        match LINE.get(..1 + 2 * self.level) {
            Some(line) => writer.write_all(line),
            None => deep_line(writer, self.level),
        }
    }

    fn open<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        bracket: &[u8],
    ) -> std::io::Result<()> {
        self.level += 1;
        self.has_value = false;
        writer.write_all(bracket)
    }

    fn close<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        bracket: &[u8],
    ) -> std::io::Result<()> {
        self.level -= 1;
        if self.has_value {
            self.line(writer)?;
        }
        writer.write_all(bracket)
    }

    fn item<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        if !first {
            writer.write_all(b",")?;
        }
        self.line(writer)
    }
}

/// A line break deeper than [`LINE`] reaches (never, for a checked value): kept out of line, so
/// the writer's hot functions stay small enough for the compiler to inline (about 600
/// instructions less for a 1 KB result).
#[cold]
#[inline(never)]
fn deep_line<W: ?Sized + std::io::Write>(writer: &mut W, level: usize) -> std::io::Result<()> {
    writer.write_all(b"\n")?;
    (0..level).try_for_each(|_| writer.write_all(b"  "))
}

impl serde_json::ser::Formatter for Pretty {
    fn begin_array<W: ?Sized + std::io::Write>(&mut self, writer: &mut W) -> std::io::Result<()> {
        self.open(writer, b"[")
    }
    fn end_array<W: ?Sized + std::io::Write>(&mut self, writer: &mut W) -> std::io::Result<()> {
        self.close(writer, b"]")
    }
    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.item(writer, first)
    }
    fn end_array_value<W: ?Sized + std::io::Write>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
    fn begin_object<W: ?Sized + std::io::Write>(&mut self, writer: &mut W) -> std::io::Result<()> {
        self.open(writer, b"{")
    }
    fn end_object<W: ?Sized + std::io::Write>(&mut self, writer: &mut W) -> std::io::Result<()> {
        self.close(writer, b"}")
    }
    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.item(writer, first)
    }
    fn begin_object_value<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
    ) -> std::io::Result<()> {
        writer.write_all(b": ")
    }
    fn end_object_value<W: ?Sized + std::io::Write>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_keeps_at_most_a_kilobyte_of_spare_capacity() {
        let small = serde_json::json!({"a": 1});
        let large = Value::Array((0..5_000).map(|i| serde_json::json!({"row": i})).collect());
        for value in [&small, &large] {
            for text in [pretty(value), compact(value)] {
                assert!(
                    text.capacity() - text.len() <= MAX_SPARE,
                    "{} bytes in {}",
                    text.len(),
                    text.capacity()
                );
            }
        }
    }
}
