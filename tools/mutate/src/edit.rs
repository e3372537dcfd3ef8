//! Changes one place of a TOML document, keeping the rest (comments included) as it was.

use toml_edit::{ArrayOfTables, DocumentMut, Item, Table, Value};

use crate::keypath::{KeyPath, Segment};

/// One change at one path.
#[derive(Clone, Debug)]
pub enum Edit {
    /// Put this value where the path's value (or list, or table) was.
    Set(Value),
    /// Remove the key, or the array element, at the path.
    Delete,
    /// Add this key with this value to the table at the path.
    AddKey(String, Value),
    /// Insert a copy of the list's first element after it.
    DuplicateFirst,
    /// Append a copy of every element of the list to it.
    Double,
}

/// Why an edit could not be made (a path that does not lead anywhere, or the wrong kind of
/// place for the edit).
#[derive(Debug, PartialEq)]
pub struct EditError(pub String);

/// The item a path leads to.
fn item_at<'a>(doc: &'a mut DocumentMut, segments: &[Segment]) -> Result<&'a mut Item, EditError> {
    let mut item = doc.as_item_mut();
    for segment in segments {
        let next = match segment {
            Segment::Key(key) => item.get_mut(key.as_str()),
            Segment::Index(index) => item.get_mut(*index),
        };
        item = next.ok_or_else(|| EditError(format!("no {segment:?}")))?;
    }
    Ok(item)
}

/// Applies the edit to the document.
pub fn apply(doc: &mut DocumentMut, path: &KeyPath, edit: &Edit) -> Result<(), EditError> {
    match edit {
        Edit::Set(value) => set(item_at(doc, path.segments())?, value),
        Edit::Delete => delete(doc, path),
        Edit::AddKey(key, value) => {
            let table = item_at(doc, path.segments())?
                .as_table_like_mut()
                .ok_or_else(|| EditError(format!("{path} is not a table")))?;
            table.insert(key, Item::Value(value.clone()));
            Ok(())
        }
        Edit::DuplicateFirst => grow(item_at(doc, path.segments())?, path, false),
        Edit::Double => grow(item_at(doc, path.segments())?, path, true),
    }
}

/// Replaces the item by the value, keeping the old value's spacing and trailing comment.
fn set(item: &mut Item, value: &Value) -> Result<(), EditError> {
    let mut value = value.clone();
    if let Item::Value(old) = item {
        *value.decor_mut() = old.decor().clone();
    } else {
        value.decor_mut().set_prefix(" ");
    }
    *item = Item::Value(value);
    Ok(())
}

fn delete(doc: &mut DocumentMut, path: &KeyPath) -> Result<(), EditError> {
    let (parent, last) = path
        .split_last()
        .ok_or_else(|| EditError("the root cannot be deleted".to_owned()))?;
    let parent = item_at(doc, parent)?;
    let removed = match last {
        Segment::Key(key) => parent
            .as_table_like_mut()
            .and_then(|table| table.remove(key))
            .is_some(),
        Segment::Index(index) => {
            if let Some(array) = parent.as_array_mut().filter(|a| *index < a.len()) {
                array.remove(*index);
                true
            } else if let Some(tables) =
                parent.as_array_of_tables_mut().filter(|a| *index < a.len())
            {
                tables.remove(*index);
                true
            } else {
                false
            }
        }
    };
    if removed {
        Ok(())
    } else {
        Err(EditError(format!("nothing to delete at {path}")))
    }
}

/// Duplicates the first element (`double == false`) or every element of the list.
fn grow(item: &mut Item, path: &KeyPath, double: bool) -> Result<(), EditError> {
    if let Some(array) = item.as_array_mut().filter(|a| !a.is_empty()) {
        let old: Vec<Value> = array.iter().cloned().collect();
        let (at, copies) = copies_of(&old, double);
        for (i, mut copy) in copies.into_iter().enumerate() {
            copy.decor_mut().clear();
            array.insert(at + i, copy);
        }
        return Ok(());
    }
    if let Some(tables) = item.as_array_of_tables_mut().filter(|a| !a.is_empty()) {
        let mut all: Vec<Table> = tables.iter().cloned().collect();
        let (at, copies) = copies_of(&all, double);
        all.splice(at..at, copies);
        *tables = all.into_iter().collect::<ArrayOfTables>();
        return Ok(());
    }
    Err(EditError(format!("{path} is not a non-empty list")))
}

/// Where the copies go and what they are: the first element after it, or all at the end.
fn copies_of<T: Clone>(elements: &[T], double: bool) -> (usize, Vec<T>) {
    if double {
        (elements.len(), elements.to_vec())
    } else {
        (1, elements.iter().take(1).cloned().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edited(text: &str, path: KeyPath, edit: Edit) -> String {
        let mut doc: DocumentMut = text.parse().expect("test document parses");
        apply(&mut doc, &path, &edit).expect("edit applies");
        doc.to_string()
    }

    const DOC: &str =
        "a = 1 # one\n[t]\nlist = [1, 2]\n[t.u]\nb = \"s\"\n[[aot]]\nx = 1\n[[aot]]\nx = 2\n";

    #[test]
    fn set_keeps_the_comment() {
        let text = edited(DOC, KeyPath::root().key("a"), Edit::Set(Value::from(7)));
        assert!(text.starts_with("a = 7 # one\n"), "{text}");
    }

    #[test]
    fn deletes_in_nested_tables_and_arrays() {
        let text = edited(
            DOC,
            KeyPath::root().key("t").key("u").key("b"),
            Edit::Delete,
        );
        assert!(!text.contains("b = "), "{text}");
        assert!(text.contains("[t.u]"), "{text}");
        let text = edited(
            DOC,
            KeyPath::root().key("t").key("list").index(0),
            Edit::Delete,
        );
        assert!(
            text.contains("list = [2]") || text.contains("list = [ 2]"),
            "{text}"
        );
        let text = edited(DOC, KeyPath::root().key("aot").index(1), Edit::Delete);
        assert!(!text.contains("x = 2") && text.contains("x = 1"), "{text}");
        let text = edited(
            DOC,
            KeyPath::root().key("aot").index(0).key("x"),
            Edit::Delete,
        );
        assert!(!text.contains("x = 1") && text.contains("x = 2"), "{text}");
    }

    #[test]
    fn grows_lists() {
        let list = KeyPath::root().key("t").key("list");
        let text = edited(DOC, list.clone(), Edit::DuplicateFirst);
        assert!(text.contains("list = [1, 1, 2]"), "{text}");
        let text = edited(DOC, list, Edit::Double);
        assert!(text.contains("list = [1, 2, 1, 2]"), "{text}");
        let text = edited(DOC, KeyPath::root().key("aot"), Edit::Double);
        assert_eq!(text.matches("[[aot]]").count(), 4, "{text}");
    }

    #[test]
    fn adds_a_key_to_a_table() {
        let text = edited(
            DOC,
            KeyPath::root().key("t").key("u"),
            Edit::AddKey("zz".into(), Value::from(1)),
        );
        assert!(text.contains("b = \"s\"\nzz = 1\n"), "{text}");
    }

    #[test]
    fn reports_a_missing_path() {
        let mut doc: DocumentMut = DOC.parse().expect("test document parses");
        assert!(
            apply(
                &mut doc,
                &KeyPath::root().key("nope").key("x"),
                &Edit::Delete
            )
            .is_err()
        );
        assert!(apply(&mut doc, &KeyPath::root(), &Edit::Delete).is_err());
    }
}
