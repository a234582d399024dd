//! The checks of a store folder: registries, manifests and domain files read into the
//! parsed [`Folder`], every problem reported at once with its file, line and column.
//!
//! Layers, later winning: the defaults' system manifest, the defaults' user manifest, the
//! user folder's user manifest; likewise for the registries. A user entry overrides the
//! fields it gives; an id the system manifest lacks is a prompt of the user's own. A domain
//! file is read from the folder of the manifest that named it. Two prompts of one layer
//! may share a domain file only when it keeps them apart by id (the code's form); a file
//! of the seed's form holds one prompt, and a second reader is refused.

use super::json::{Entries, Reader, field, is_word};
use super::layout::{Layer, MANIFEST, REGISTRY, USER_MANIFEST, USER_REGISTRY, is_inside};
use super::parsed::{Body, Folder, Key, Part, Phase, PromptDef, Target, Text, Variant};
use crate::chat::Role;
use crate::diagnostic::Repeats;
use crate::parse::lexer::{Syntax, Token, is_name};
use crate::suggest::closest;
use crate::{Diagnostic, Diagnostics, SourceFile};
use serde_json::value::RawValue;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::rc::Rc;

const ENTRY_FIELDS: &[&str] = &[
    "id",
    "domain",
    "domain_file",
    "label",
    "name",
    "description",
    "category",
    "type",
    "target",
    "position",
    "order",
    "enabled",
    "tags",
    "requires_any",
    "variant_condition",
    "variants",
];
const REGISTRY_FIELDS: &[&str] = &[
    "type",
    "resolve_phase",
    "source",
    "source_path",
    "key",
    "description",
    "function",
    "compute_function",
    "default",
    "label",
    "example",
    "category",
    "name",
    "join_separator",
];
const VARIANT_FIELDS: &[&str] = &[
    "text",
    "content",
    "messages",
    "enabled",
    "label",
    "description",
];
/// PromptEngine's `VALID_POSITIONS` (its validator reports any other value).
const POSITIONS: &[&str] = &[
    "system_prompt",
    "system_prompt_append",
    "first_assistant",
    "consent_dialog",
    "user_message",
    "prefill",
    "history",
];
const DATA_TYPES: &[&str] = &["string", "number", "list", "message_array", "boolean"];

/// Enabled flags by variant name.
type Flags = Vec<(String, bool)>;

/// A value and where it was written.
#[derive(Clone)]
struct Spanned<T> {
    value: T,
    source: SourceFile,
    span: Range<usize>,
}

/// One manifest entry as a layer writes it: only the fields it gives.
#[derive(Default)]
struct Entry {
    /// Where the id is written (the entry's key), in the manifest that first named it.
    at: Option<Spanned<String>>,
    /// The domain file and the layer to read it from.
    domain: Option<(Spanned<String>, usize)>,
    label: Option<String>,
    description: Option<String>,
    category: Option<String>,
    multi_turn: Option<bool>,
    target: Option<Target>,
    order: Option<i64>,
    enabled: Option<bool>,
    requires_any: Option<Vec<Spanned<String>>>,
    position: Option<String>,
    variant_condition: Option<String>,
    /// Enabled flags by variant name, a later layer's replacing an earlier one's.
    variants: Vec<Spanned<(String, bool)>>,
}

/// What a problem inside one prompt (its domain file, its texts, its `requires_any`) does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// It refuses the whole folder (the defaults, the derive, `strict(true)`).
    Strict,
    /// It refuses that prompt only: the prompt is kept with its problems
    /// ([`Folder::broken`]), so that rendering it, or an assembly that takes it, reports
    /// them while every other prompt serves.
    PerPrompt,
}

/// Reads and checks the defaults folder and, if given, the user's folder.
pub fn build(
    defaults: &mut Layer,
    user: Option<&mut Layer>,
    mode: Mode,
) -> Result<Folder, Diagnostics> {
    build_with(defaults, user, mode, false)
}

/// [`build`]; with `whole_entries`, a user manifest's entry replaces the entry of its id
/// whole, as PromptEngine merges its two manifests, instead of overriding the fields it
/// gives (promptic's user layer).
pub fn build_with(
    defaults: &mut Layer,
    mut user: Option<&mut Layer>,
    mode: Mode,
    whole_entries: bool,
) -> Result<Folder, Diagnostics> {
    let mut problems = Diagnostics::default();

    // The registry first: the texts are checked against it. A registry that does not
    // read leaves no keys to check them against: their keys are then not reported (each
    // would be a follow-on error), but every other problem of the folder still is.
    let before = problems.0.len();
    let mut keys: HashMap<String, Key> = HashMap::new();
    for (rel, required) in [(REGISTRY, true), (USER_REGISTRY, false)] {
        if let Some(source) = read(defaults, rel, required, &mut problems) {
            registry(&source, &mut keys, &mut problems);
        }
    }
    if let Some(source) = user
        .as_deref_mut()
        .and_then(|u| read(u, USER_REGISTRY, false, &mut problems))
    {
        registry(&source, &mut keys, &mut problems);
    }
    let keys_known = problems.0.len() == before;
    let mut keys: Vec<Key> = keys.into_values().collect();
    keys.sort_unstable_by(|a, b| a.name.cmp(&b.name));

    // The manifests, merged by id.
    let mut entries: Vec<(String, Entry)> = Vec::new();
    for (rel, required) in [(MANIFEST, true), (USER_MANIFEST, false)] {
        if let Some(source) = read(defaults, rel, required, &mut problems) {
            let replace = whole_entries && rel == USER_MANIFEST;
            manifest(&source, 0, replace, &mut entries, &mut problems);
        }
    }
    if let Some(source) = user
        .as_deref_mut()
        .and_then(|u| read(u, USER_MANIFEST, false, &mut problems))
    {
        manifest(&source, 1, whole_entries, &mut entries, &mut problems);
    }

    let mut folder = Folder {
        keys,
        prompts: Vec::new(),
        broken: Vec::new(),
    };
    let domains = DomainCache::default();
    // Who reads each domain file first, by layer and file, and where the entry names it.
    let mut readers: HashMap<(String, usize), (String, Spanned<String>)> = HashMap::new();
    for (id, entry) in entries {
        let named = named_file(&id, &entry);
        let layers: [Option<&mut Layer>; 2] = [Some(&mut *defaults), user.as_deref_mut()];
        let mut own = Diagnostics::default();
        let lookup = Lookup {
            keys: &folder.keys,
            known: keys_known,
            in_place: whole_entries,
            domains: &domains,
        };
        let Some(mut prompt) = prompt(&id, entry, layers, &lookup, &mut own) else {
            problems.extend(own);
            continue;
        };
        if !own.is_empty() {
            match mode {
                Mode::Strict => problems.extend(own),
                Mode::PerPrompt => {
                    prompt.broken = true;
                    folder.broken.push((folder.prompts.len(), own));
                }
            }
        }
        // Two prompts writing one file refuse the whole layer, in every mode: an edit of
        // either would change the other.
        if let Some(named) = named {
            let layer = if prompt.domain.1 == 1 {
                user.as_deref()
            } else {
                Some(&*defaults)
            };
            match readers.entry(prompt.domain.clone()) {
                std::collections::hash_map::Entry::Vacant(slot) => {
                    slot.insert((id.clone(), named));
                }
                std::collections::hash_map::Entry::Occupied(first) => {
                    let (first_id, first_at) = first.get();
                    if let Some(d) =
                        shared_file(layer, &prompt, first_id, first_at, &named, &domains)
                    {
                        problems.push(d);
                    }
                }
            }
        }
        folder.prompts.push(prompt);
    }
    // A folder refused whole reports every prompt's problems with its own.
    if !problems.is_empty() {
        for (_, own) in std::mem::take(&mut folder.broken) {
            problems.extend(own);
        }
    }
    problems.into_result(folder)
}

/// A domain file's top-level keys and where their values are, found once: a file that
/// holds many prompts (PromptEngine's code form, `{ID: {...}, ...}`) is parsed once for
/// all of them, and each prompt's entry found by its id, so a file of N prompts is read
/// in time in proportion to N, not N².
struct DomainIndex {
    /// The keys in file order, each with the span of its value (a repeated key: the first,
    /// as a search of the entries finds it).
    keys: Vec<(String, Range<usize>)>,
    by_key: HashMap<String, usize>,
}

/// The domain files indexed so far, by the address of their text (each file of each
/// layer is read once and kept while the folder is built); a file that does not parse
/// keeps its diagnostics, given again to each prompt that names it.
type DomainCache = RefCell<HashMap<usize, Result<Rc<DomainIndex>, Diagnostics>>>;

/// The registry's keys as a prompt's texts are checked against them.
struct Lookup<'a> {
    keys: &'a [Key],
    /// Whether the registry read: else a key is not reported as unknown.
    known: bool,
    /// A PromptEngine folder read in place (PersonaUI's), whose system registry is the
    /// application's: a key a text lacks belongs in the user registry.
    in_place: bool,
    domains: &'a DomainCache,
}

/// Where entry `id` names its domain file (its `domain`, else its id: `{id}.json`).
fn named_file(id: &str, entry: &Entry) -> Option<Spanned<String>> {
    match &entry.domain {
        Some((file, _)) => Some(file.clone()),
        None => entry.at.clone().map(|at| Spanned {
            value: format!("{id}.json"),
            ..at
        }),
    }
}

/// Two prompts of one layer reading one domain file: refused when the file holds one
/// prompt (the seed's `{"variants": …}`), whose text both would read and an edit of either
/// would change. A file in the code's form keeps each prompt under its own id, as
/// PromptEngine's duplicate of a prompt writes it; an edit of one then leaves the other's
/// entry as it is.
fn shared_file(
    layer: Option<&Layer>,
    prompt: &PromptDef,
    first_id: &str,
    first_at: &Spanned<String>,
    named: &Spanned<String>,
    domains: &DomainCache,
) -> Option<Diagnostic> {
    let source = layer?.get(&prompt.domain.0)?;
    // The file's index, made when the prompt's variants were read: a file that holds
    // many prompts is not parsed again for each of them.
    let indexed = domains
        .borrow()
        .get(&(source.text().as_ptr() as usize))
        .map(|index| {
            index
                .as_ref()
                .is_ok_and(|i| i.by_key.contains_key("variants"))
        });
    let one_prompt = indexed.unwrap_or_else(|| {
        crate::source::json::object_entries(source.text())
            .is_ok_and(|top| top.iter().any(|(k, _)| k == "variants"))
    });
    if !one_prompt {
        return None;
    }
    let id = &prompt.id;
    let (line, col) = first_at.source.line_col(first_at.span.start);
    Some(
        Diagnostic::new(format!(
            "prompts `{first_id}` and `{id}` share the domain file `{}`: an edit of one would change the other",
            source.path()
        ))
        .at(&named.source, named.span.clone())
        .with_help(format!(
            "give prompt `{id}` a file of its own, or hold both in one file under their ids: `{{\"{first_id}\": {{\"variants\": …}}, \"{id}\": {{\"variants\": …}}}}`"
        ))
        .with_note(format!(
            "prompt `{first_id}` names it at {}:{line}:{col}",
            first_at.source.path()
        )),
    )
}

/// Reads one file of the layout; a required file that is missing is a problem.
fn read(
    layer: &mut Layer,
    rel: &str,
    required: bool,
    problems: &mut Diagnostics,
) -> Option<SourceFile> {
    match layer.read(rel) {
        Ok(Some(source)) => Some(source),
        Ok(None) => {
            if required {
                let shown = layer.shown(rel);
                problems.push(
                    Diagnostic::new(format!("`{shown}` does not exist"))
                        .in_file(shown)
                        .with_help("a PromptEngine folder has `_meta/prompt_manifest.json` and `_meta/placeholder_registry.json`"),
                );
            }
            None
        }
        Err(e) => {
            problems.extend(e);
            None
        }
    }
}

/// The last of the items with each name, in the order of those last ones: what replacing
/// an item of the same name (removing it, then pushing the new one) one at a time leaves,
/// in time in proportion to the items rather than their square.
pub fn last_of_each<T>(items: Vec<T>, name: impl Fn(&T) -> &str) -> Vec<T> {
    let mut last: HashMap<&str, usize> = HashMap::new();
    for (i, item) in items.iter().enumerate() {
        last.insert(name(item), i);
    }
    let keep: Vec<bool> = (0..items.len())
        .map(|i| last.get(name(&items[i])) == Some(&i))
        .collect();
    drop(last);
    items
        .into_iter()
        .zip(keep)
        .filter_map(|(item, keep)| keep.then_some(item))
        .collect()
}

/// `{"placeholders": {KEY: {...}}}` into `keys` (a later entry replaces an earlier one),
/// by name: a registry of N keys is read in time in proportion to N.
fn registry(source: &SourceFile, keys: &mut HashMap<String, Key>, problems: &mut Diagnostics) {
    let mut r = Reader { source, problems };
    let Some(top) = r.top() else { return };
    let Some((_, placeholders)) = top.iter().find(|(k, _)| k == "placeholders") else {
        let d = r
            .error(
                0..1,
                format!("`{}` has no `placeholders` object", source.path()),
            )
            .with_help(r#"write `{"placeholders": {"char_name": {"resolve_phase": "static"}}}`"#);
        r.push(d);
        return;
    };
    let Some(entries) = r.object(placeholders, "`placeholders`") else {
        return;
    };
    for (name, raw) in entries {
        if !is_name(&name) {
            let d = r
                .error(r.key_span(raw), format!("placeholder `{name}` is not a placeholder name"))
                .with_help("a name is ASCII letters, digits and `_`, not starting with a digit: `{{name}}` could never use it");
            r.push(d);
            continue;
        }
        let what = format!("placeholder `{name}`");
        let Some(fields) = r.object(raw, &what) else {
            continue;
        };
        r.misspelt_fields(&fields, REGISTRY_FIELDS, &what);
        if let Some(key) = registry_entry(&mut r, &name, raw, &fields) {
            keys.insert(key.name.clone(), key);
        }
    }
}

fn registry_entry(
    r: &mut Reader<'_>,
    name: &str,
    raw: &RawValue,
    fields: &Entries<'_>,
) -> Option<Key> {
    let phase_help = "the phases are `static`, `computed` and `runtime`";
    let phase = match (field(fields, "resolve_phase"), field(fields, "type")) {
        (Some(raw), data) => {
            // PromptEngine's code: `resolve_phase` is the phase, `type` the data type.
            if let Some(data) = data
                && let Some(word) = r.string(data, &format!("`type` of `{name}`"))
                && !DATA_TYPES.contains(&word.as_str())
            {
                let mut d = r.error(
                    r.span(data),
                    format!("`type` of placeholder `{name}` is `{word}`, not a data type"),
                );
                d = d.with_help(match closest(&word, DATA_TYPES.iter().copied()) {
                    Some(c) => format!("did you mean `{c}`?"),
                    None => format!("the data types are {}", list(DATA_TYPES)),
                });
                r.push(d);
            }
            phase_of(r, raw, name, phase_help)?
        }
        // The seed: `type` is the phase.
        (None, Some(raw)) => phase_of(r, raw, name, phase_help)?,
        (None, None) => {
            let d = r
                .error(
                    r.key_span(raw),
                    format!("placeholder `{name}` has no phase"),
                )
                .with_help(r#"add `"resolve_phase": "static"` (or `"computed"`, `"runtime"`)"#);
            r.push(d);
            return None;
        }
    };
    let default = match field(fields, "default") {
        None => None,
        Some(raw) => match raw.get().as_bytes().first() {
            Some(b'"') => r.string(raw, "`default`"),
            Some(b'n') => None,
            Some(b'{' | b'[') => {
                let d = r.error(
                    r.span(raw),
                    format!(
                        "`default` of placeholder `{name}` must be a string, number or boolean"
                    ),
                );
                r.push(d);
                return None;
            }
            // A number or a boolean, as PromptEngine's `str(default)` prints it.
            _ => serde_json::from_str::<serde_json::Value>(raw.get())
                .ok()
                .map(|v| crate::value::python::str_of(&v)),
        },
    };
    let text = |r: &mut Reader<'_>, f: &str| {
        field(fields, f).and_then(|raw| r.string(raw, &format!("`{f}` of placeholder `{name}`")))
    };
    let source = text(r, "source");
    let source_path = text(r, "source_path");
    let join_separator = text(r, "join_separator");
    let compute_function = text(r, "compute_function").or_else(|| text(r, "function"));
    let list = field(fields, "type").is_some_and(|t| t.get() == "\"list\"")
        && field(fields, "resolve_phase").is_some();
    Some(Key {
        name: name.to_owned(),
        phase,
        default,
        source,
        source_path,
        list,
        join_separator,
        compute_function: compute_function.filter(|f| !f.is_empty()),
    })
}

fn phase_of(r: &mut Reader<'_>, raw: &RawValue, name: &str, help: &str) -> Option<Phase> {
    let word = r.string(raw, &format!("the phase of `{name}`"))?;
    match Phase::from_word(&word) {
        Some(phase) => Some(phase),
        None => {
            let d = r
                .error(
                    r.span(raw),
                    format!("placeholder `{name}` has phase `{word}`, which is not a phase"),
                )
                .with_help(match closest(&word, ["static", "computed", "runtime"]) {
                    Some(c) => format!("did you mean `{c}`?"),
                    None => help.to_owned(),
                });
            r.push(d);
            None
        }
    }
}

fn list(words: &[&str]) -> String {
    words
        .iter()
        .map(|w| format!("`{w}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `{"prompts": {ID: {...}}}` merged into `entries`.
fn manifest(
    source: &SourceFile,
    layer: usize,
    replace: bool,
    entries: &mut Vec<(String, Entry)>,
    problems: &mut Diagnostics,
) {
    let mut r = Reader { source, problems };
    let Some(top) = r.top() else { return };
    let Some((_, prompts)) = top.iter().find(|(k, _)| k == "prompts") else {
        let d = r
            .error(0..1, format!("`{}` has no `prompts` object", source.path()))
            .with_help(r#"write `{"version": "2.0", "prompts": {"system_rule": {"domain": "system_rule"}}}`"#);
        r.push(d);
        return;
    };
    let Some(prompts) = r.object(prompts, "`prompts`") else {
        return;
    };
    // Where each id already is, so that merging N entries is not N scans of the list.
    let mut index_of: HashMap<String, usize> = entries
        .iter()
        .enumerate()
        .map(|(i, (id, _))| (id.clone(), i))
        .collect();
    for (id, raw) in prompts {
        let what = format!("prompt `{id}`");
        let Some(fields) = r.object(raw, &what) else {
            continue;
        };
        r.misspelt_fields(&fields, ENTRY_FIELDS, &what);
        let at = Spanned {
            value: id.clone(),
            source: source.clone(),
            span: r.key_span(raw),
        };
        let index = match index_of.get(&id) {
            Some(&i) => i,
            None => {
                index_of.insert(id.clone(), entries.len());
                entries.push((
                    id.clone(),
                    Entry {
                        at: Some(at),
                        ..Entry::default()
                    },
                ));
                entries.len() - 1
            }
        };
        if replace {
            // PromptEngine's merge: the later entry is the whole entry (it keeps its place).
            entries[index].1 = Entry {
                at: Some(Spanned {
                    value: id.clone(),
                    source: source.clone(),
                    span: r.key_span(raw),
                }),
                ..Entry::default()
            };
        }
        entry(&mut r, &id, layer, &fields, &mut entries[index].1);
    }
}

/// One layer's fields of an entry, over what earlier layers gave.
fn entry(r: &mut Reader<'_>, id: &str, layer: usize, fields: &Entries<'_>, entry: &mut Entry) {
    for (field, raw) in fields {
        let raw = *raw;
        let what = format!("`{field}` of prompt `{id}`");
        let span = r.span(raw);
        match field.as_str() {
            "domain" | "domain_file" => {
                let Some(name) = r.string(raw, &what) else {
                    continue;
                };
                // The seed names a domain (`system_rule`), the code a file (`system_rule.json`).
                let file = if name.ends_with(".json") {
                    name.clone()
                } else {
                    format!("{name}.json")
                };
                if !is_inside(&file) {
                    let d = r
                        .error(
                            span,
                            format!("domain file `{name}` of prompt `{id}` is outside the folder"),
                        )
                        .with_help("name a file inside the store folder, without `..`");
                    r.push(d);
                    continue;
                }
                // `_defaults/` is the reset source and `_meta/` holds the manifests and
                // registries: a prompt whose edits were written there would change what a
                // reset restores, or the store's own files.
                if let Some(reserved) = ["_defaults", "_meta"]
                    .into_iter()
                    .find(|dir| file.split('/').next() == Some(*dir))
                {
                    let base = file.rsplit('/').next().unwrap_or(&file);
                    let holds = if reserved == "_meta" {
                        "the manifests and registries"
                    } else {
                        "the factory defaults a reset restores"
                    };
                    let d = r
                        .error(
                            span,
                            format!(
                                "domain file `{name}` of prompt `{id}` is inside `{reserved}/`, which holds {holds}, not domain files"
                            ),
                        )
                        .with_help(format!("name a file of the folder itself, such as `{base}`"));
                    r.push(d);
                    continue;
                }
                entry.domain = Some((
                    Spanned {
                        value: file,
                        source: r.source.clone(),
                        span,
                    },
                    layer,
                ));
            }
            "label" | "name" => entry.label = r.string(raw, &what).or(entry.label.take()),
            "description" => entry.description = r.string(raw, &what).or(entry.description.take()),
            "category" => {
                let Some(category) = r.string(raw, &what) else {
                    continue;
                };
                if !is_word(&category) {
                    let d = r
                        .error(
                            span,
                            format!(
                                "category `{category}` of prompt `{id}` is not a category name"
                            ),
                        )
                        .with_help(
                            "a category is ASCII letters, digits, `_` and `-`, such as `core`",
                        );
                    r.push(d);
                    continue;
                }
                entry.category = Some(category);
            }
            "type" => {
                match r.string(raw, &what).as_deref() {
                    Some("text") => entry.multi_turn = Some(false),
                    Some("multi_turn") => entry.multi_turn = Some(true),
                    Some(other) => {
                        let d = r
                        .error(span, format!("`type` of prompt `{id}` is `{other}`, not `text` or `multi_turn`"))
                        .with_help(suggest_or(other, &["text", "multi_turn"]));
                        r.push(d);
                    }
                    None => {}
                }
            }
            "target" => {
                let Some(word) = r.string(raw, &what) else {
                    continue;
                };
                match Target::from_word(&word) {
                    Some(target) => entry.target = Some(target),
                    None => {
                        let d = r
                            .error(
                                span,
                                format!("`target` of prompt `{id}` is `{word}`, not a target"),
                            )
                            .with_help(suggest_or(&word, &["system_prompt", "message", "prefill"]));
                        r.push(d);
                    }
                }
            }
            "order" => entry.order = r.integer(raw, &what).or(entry.order),
            "position" => {
                let Some(word) = r.string(raw, &what) else {
                    continue;
                };
                if !POSITIONS.contains(&word.as_str()) {
                    let d = r
                        .error(
                            span,
                            format!("`position` of prompt `{id}` is `{word}`, not a position"),
                        )
                        .with_help(suggest_or(&word, POSITIONS));
                    r.push(d);
                    continue;
                }
                entry.position = Some(word);
            }
            "variant_condition" => {
                // `null` or `""` is no condition, as PromptEngine's truthiness test reads it.
                if raw.get() == "null" {
                    entry.variant_condition = None;
                    continue;
                }
                let Some(word) = r.string(raw, &what) else {
                    continue;
                };
                entry.variant_condition = (!word.is_empty()).then_some(word);
            }
            "enabled" => entry.enabled = r.bool(raw, &what).or(entry.enabled),
            "tags" => {
                r.strings(raw, &what);
            }
            "requires_any" => {
                if let Some(keys) = r.strings(raw, &what) {
                    let source = r.source.clone();
                    entry.requires_any = Some(
                        keys.into_iter()
                            .map(|(value, span)| Spanned {
                                value,
                                source: source.clone(),
                                span,
                            })
                            .collect(),
                    );
                }
            }
            "variants" => {
                let Some(variants) = r.object(raw, &what) else {
                    continue;
                };
                for (name, raw) in variants {
                    if !variant_name_ok(r, &name, raw, id) {
                        continue;
                    }
                    let what = format!("variant `{name}` of prompt `{id}`");
                    let Some(fields) = r.object(raw, &what) else {
                        continue;
                    };
                    r.misspelt_fields(&fields, &["enabled"], &what);
                    let enabled = match fields.iter().find(|(k, _)| k == "enabled") {
                        Some((_, v)) => match r.bool(v, &format!("`enabled` of {what}")) {
                            Some(b) => b,
                            None => continue,
                        },
                        None => true,
                    };
                    let span = r.key_span(raw);
                    // Repeats are dropped once all the manifests are read (`last_of_each`).
                    entry.variants.push(Spanned {
                        value: (name, enabled),
                        source: r.source.clone(),
                        span,
                    });
                }
            }
            _ => {}
        }
    }
}

fn variant_name_ok(r: &mut Reader<'_>, name: &str, raw: &RawValue, id: &str) -> bool {
    if is_word(name) {
        return true;
    }
    let d = r
        .error(r.key_span(raw), format!("variant name `{name}` of prompt `{id}` is not a variant name"))
        .with_help("a variant name is ASCII letters, digits, `_` and `-`, such as `default` or `experimental`");
    r.push(d);
    false
}

fn suggest_or(word: &str, choices: &[&str]) -> String {
    match closest(word, choices.iter().copied()) {
        Some(c) => format!("did you mean `{c}`?"),
        None => format!("write one of {}", list(choices)),
    }
}

/// A merged entry with its domain file's variants: one prompt, checked.
fn prompt(
    id: &str,
    entry: Entry,
    mut layers: [Option<&mut Layer>; 2],
    lookup: &Lookup<'_>,
    problems: &mut Diagnostics,
) -> Option<PromptDef> {
    let (keys, in_place) = (lookup.keys, lookup.in_place);
    let at = entry.at.clone()?;
    let mut requires_any = Vec::new();
    for key in entry.requires_any.iter().flatten() {
        match keys.binary_search_by(|k| k.name.as_str().cmp(&key.value)) {
            Ok(i) => requires_any.push(i),
            Err(_) if !lookup.known => {}
            Err(_) => problems.push(unknown_key(
                &key.value,
                &key.source,
                key.span.clone(),
                keys,
                "`requires_any` names",
                // A key the user manifest names belongs in the user's registry.
                &where_keys_go(in_place || is_user_manifest(&key.source)),
            )),
        }
    }
    let (file, layer) = match &entry.domain {
        Some((file, layer)) => (file.clone(), *layer),
        None => (
            Spanned {
                value: format!("{id}.json"),
                ..at.clone()
            },
            0,
        ),
    };
    let from = layers[layer].as_deref_mut()?;
    let multi_turn = entry.multi_turn.unwrap_or(false);
    let source = match from.read(&file.value) {
        Ok(Some(source)) => Some(source),
        Ok(None) => {
            let shown = from.shown(&file.value);
            let message = if entry.domain.is_some() {
                format!("domain file `{shown}` of prompt `{id}` does not exist")
            } else {
                format!("prompt `{id}` names no domain file, and `{shown}` does not exist")
            };
            problems.push(
                Diagnostic::new(message)
                    .at(&file.source, file.span.clone())
                    .with_help(format!("create `{shown}` with the prompt's variants, or name its file with `\"domain\"`")),
            );
            None
        }
        Err(e) => {
            problems.extend(e);
            None
        }
    };
    // A prompt whose domain does not read is kept without variants: the caller decides
    // whether its problems refuse the folder or only the prompt.
    let (variants, domain_flags) = source
        .as_ref()
        .and_then(|source| {
            // A text of the user layer, or of a prompt of the user manifest, takes its new
            // keys from the user registry.
            let registry = where_keys_go(in_place || layer == 1 || is_user_manifest(&at.source));
            domain(source, id, multi_turn, lookup, &registry, problems)
        })
        .unwrap_or_default();
    let domain_path = source
        .as_ref()
        .map_or_else(|| file.value.clone(), |s| s.path().to_owned());
    let mut variant_enabled = domain_flags;
    let named: HashSet<&str> = variants.iter().map(|v| v.name.as_str()).collect();
    let flags = last_of_each(entry.variants, |flag| flag.value.0.as_str());
    for flag in &flags {
        let (name, on) = flag.value.clone();
        // Turning off a variant the domain lacks is harmless; turning one on claims a text.
        if on && !named.contains(name.as_str()) && !named.contains("default") {
            problems.push(
                Diagnostic::new(format!("variant `{name}` of prompt `{id}` is not in `{domain_path}`, which has no `default` variant to fall back on"))
                    .at(&flag.source, flag.span.clone())
                    .with_help(match closest(&name, variants.iter().map(|v| v.name.as_str())) {
                        Some(c) => format!("did you mean `{c}`?"),
                        None => format!("add variant `{name}` or `default` to `{domain_path}`"),
                    }),
            );
        }
        variant_enabled.push((name, on));
    }
    let variant_enabled = last_of_each(variant_enabled, |(name, _)| name.as_str());
    Some(PromptDef {
        id: id.to_owned(),
        label: entry.label,
        description: entry.description,
        category: entry.category,
        multi_turn,
        target: entry.target.unwrap_or(Target::SystemPrompt),
        order: entry.order.unwrap_or(9999),
        enabled: entry.enabled.unwrap_or(true),
        requires_any,
        position: entry.position,
        variant_condition: entry.variant_condition,
        variants,
        domain: (file.value, layer),
        variant_enabled,
        broken: false,
    })
}

/// True when `source` is a user manifest: the prompts it names are the user's.
fn is_user_manifest(source: &SourceFile) -> bool {
    source.path().ends_with(USER_MANIFEST)
}

fn unknown_key(
    name: &str,
    source: &SourceFile,
    span: Range<usize>,
    keys: &[Key],
    what: &str,
    registry: &str,
) -> Diagnostic {
    let d = Diagnostic::new(format!(
        "{what} `{name}`, which is not in the placeholder registry"
    ))
    .at(source, span);
    match closest(name, keys.iter().map(|k| k.name.as_str())) {
        Some(c) => d.with_help(format!("did you mean `{c}`?")),
        None => d.with_help(format!("add `{name}` to {registry}")),
    }
}

/// Where a key a text lacks is added, as a help shows it: the user's registry (and the
/// store's edit that writes it) for the user's texts, else the folder's registry.
fn where_keys_go(user: bool) -> String {
    if user {
        format!("`{USER_REGISTRY}` (`Store::add_placeholder`)")
    } else {
        format!("`{REGISTRY}`")
    }
}

/// A domain file's variants for prompt `id`, in either form: the seed's
/// `{"id", "variants": {NAME: {"text", "enabled"}}}` or the code's
/// `{ID: {"variants": {NAME: {"content"}}}}`. Also the enabled flags it gives.
fn domain(
    source: &SourceFile,
    id: &str,
    multi_turn: bool,
    lookup: &Lookup<'_>,
    registry: &str,
    problems: &mut Diagnostics,
) -> Option<(Vec<Variant>, Flags)> {
    let (keys, known) = (lookup.keys, lookup.known);
    let mut r = Reader { source, problems };
    let index = domain_index(&mut r, lookup.domains)?;
    // The code's form: the prompt's entry, found by its id and parsed alone.
    let code_form = !index.by_key.contains_key("variants");
    let (fields, at) = if code_form {
        let Some(&i) = index.by_key.get(id) else {
            let d = r.error(
                0..1,
                format!("`{}` does not hold prompt `{id}`", source.path()),
            );
            let d = match closest(id, index.keys.iter().map(|(k, _)| k.as_str())) {
                Some(c) => d.with_help(format!("did you mean `{c}`?")),
                None => d.with_help(format!("write `{{\"{id}\": {{\"variants\": {{\"default\": {{\"content\": \"...\"}}}}}}}}`")),
            };
            r.push(d);
            return None;
        };
        let text = r.text();
        let raw: &RawValue = serde_json::from_str(&text[index.keys[i].1.clone()]).ok()?;
        let fields = r.object(raw, &format!("prompt `{id}`"))?;
        (fields, r.key_span(raw))
    } else {
        domain_seed_form(&mut r, id)?
    };
    domain_variants(&mut r, id, multi_turn, keys, known, registry, fields, at)
}

/// The domain file's index, from the cache or made now (a file that does not parse
/// reports its problems here, for each prompt that names it).
fn domain_index(r: &mut Reader<'_>, cache: &DomainCache) -> Option<Rc<DomainIndex>> {
    let file = r.text().as_ptr() as usize;
    if let Some(found) = cache.borrow().get(&file) {
        return match found {
            Ok(index) => Some(Rc::clone(index)),
            Err(problems) => {
                r.problems.extend(problems.clone());
                None
            }
        };
    }
    let before = r.problems.0.len();
    let made = r.top().map(|top| {
        let mut index = DomainIndex {
            keys: Vec::with_capacity(top.len()),
            by_key: HashMap::with_capacity(top.len()),
        };
        for (key, raw) in top {
            let span = r.span(raw);
            index.by_key.entry(key.clone()).or_insert(index.keys.len());
            index.keys.push((key, span));
        }
        Rc::new(index)
    });
    let entry = match &made {
        Some(index) => Ok(Rc::clone(index)),
        None => {
            let mut own = Diagnostics::default();
            for d in &r.problems.0[before..] {
                own.push(d.clone());
            }
            Err(own)
        }
    };
    cache.borrow_mut().insert(file, entry);
    made
}

/// The seed's form, `{"id", "variants": {...}}`: the prompt is the whole file.
fn domain_seed_form<'a>(r: &mut Reader<'a>, id: &str) -> Option<(Entries<'a>, Range<usize>)> {
    let source = r.source;
    let top = r.top()?;
    if let Some(variants) = field(&top, "variants") {
        if let Some(raw) = field(&top, "id")
            && let Some(written) = r.string(raw, "`id`")
            && written != id
        {
            let d = r
                .error(
                    r.span(raw),
                    format!("`{}` is for prompt `{written}`, not `{id}`", source.path()),
                )
                .with_help(format!(
                    "write `\"id\": \"{id}\"`, or point prompt `{id}`'s `domain` at its own file"
                ));
            r.push(d);
        }
        return Some((top.clone(), r.key_span(variants)));
    }
    None
}

/// The variants of a prompt's entry (`fields`, written at `at`) and their enabled flags.
#[allow(clippy::too_many_arguments)]
fn domain_variants(
    reader: &mut Reader<'_>,
    id: &str,
    multi_turn: bool,
    keys: &[Key],
    known: bool,
    registry: &str,
    fields: Entries<'_>,
    at: Range<usize>,
) -> Option<(Vec<Variant>, Flags)> {
    let source = reader.source;
    let mut r = Reader {
        source,
        problems: &mut *reader.problems,
    };
    let Some(raw) = field(&fields, "variants") else {
        let d = r.error(
            at,
            format!("prompt `{id}` has no `variants` in `{}`", source.path()),
        );
        r.push(d);
        return None;
    };
    let entries = r.object(raw, &format!("`variants` of prompt `{id}`"))?;
    if entries.is_empty() {
        let d = r
            .error(r.span(raw), format!("prompt `{id}` has no variants"))
            .with_help(r#"add a variant: `"default": {"text": "..."}`"#);
        r.push(d);
        return None;
    }
    let mut variants = Vec::new();
    let mut flags = Vec::new();
    for (name, raw) in entries {
        if !variant_name_ok(&mut r, &name, raw, id) {
            continue;
        }
        let what = format!("variant `{name}` of prompt `{id}`");
        let Some(fields) = r.object(raw, &what) else {
            continue;
        };
        r.misspelt_fields(&fields, VARIANT_FIELDS, &what);
        if let Some(raw) = field(&fields, "enabled")
            && let Some(on) = r.bool(raw, &format!("`enabled` of {what}"))
        {
            flags.push((name.clone(), on));
        }
        let place = Place {
            id,
            variant: &name,
            keys,
            known,
            registry,
        };
        let body = if multi_turn {
            let Some(raw) = field(&fields, "messages") else {
                let d = r
                    .error(
                        r.key_span(raw),
                        format!("{what} has no `messages`, and the prompt is `multi_turn`"),
                    )
                    .with_help(r#"write `"messages": [{"role": "user", "content": "..."}]`"#);
                r.push(d);
                continue;
            };
            let Some(messages) = messages(&mut r, raw, &place) else {
                continue;
            };
            Body::Messages(messages)
        } else {
            let Some(raw) = field(&fields, "text").or_else(|| field(&fields, "content")) else {
                let d = r
                    .error(r.key_span(raw), format!("{what} has no `text`"))
                    .with_help(r#"write `"text": "..."` (or `"content"`); a prompt with `messages` needs `"type": "multi_turn"` in the manifest"#);
                r.push(d);
                continue;
            };
            let Some(text) = text(&mut r, raw, &place) else {
                continue;
            };
            Body::Text(text)
        };
        variants.push(Variant { name, body });
    }
    Some((variants, flags))
}

/// Where a text stands, for its diagnostics.
struct Place<'a> {
    id: &'a str,
    variant: &'a str,
    keys: &'a [Key],
    /// Whether the registry read: else an unknown key is not reported.
    known: bool,
    /// The registry a new key of this text belongs in.
    registry: &'a str,
}

fn messages(r: &mut Reader<'_>, raw: &RawValue, place: &Place<'_>) -> Option<Vec<(Role, Text)>> {
    let what = format!(
        "`messages` of variant `{}` of prompt `{}`",
        place.variant, place.id
    );
    let Ok(items) = serde_json::from_str::<Vec<&RawValue>>(raw.get()) else {
        let d = r.error(
            r.span(raw),
            format!("{what} must be an array of `{{\"role\", \"content\"}}` objects"),
        );
        r.push(d);
        return None;
    };
    let mut out = Vec::new();
    let mut ok = true;
    for item in items {
        let Some(fields) = r.object(item, &format!("each of {what}")) else {
            ok = false;
            continue;
        };
        let role = fields.iter().find(|(k, _)| k == "role").map(|(_, v)| *v);
        let content = fields.iter().find(|(k, _)| k == "content").map(|(_, v)| *v);
        let (Some(role), Some(content)) = (role, content) else {
            let d = r.error(
                r.span(item),
                format!("each of {what} needs a `role` and a `content`"),
            );
            r.push(d);
            ok = false;
            continue;
        };
        let role = match r.string(role, "`role`") {
            Some(word) => match Role::from_word(&word) {
                Some(role) => Some(role),
                None => {
                    let d = r
                        .error(r.span(role), format!("`{word}` is not a role"))
                        .with_help(suggest_or(&word, &["system", "user", "assistant"]));
                    r.push(d);
                    None
                }
            },
            None => None,
        };
        let text = text(r, content, place);
        match (role, text) {
            (Some(role), Some(text)) => out.push((role, text)),
            _ => ok = false,
        }
    }
    ok.then_some(out)
}

/// A JSON string split once into literal runs and placeholders, by PromptEngine's rule
/// (`{{key}}`, nothing else inside), every key checked against the registry.
fn text(r: &mut Reader<'_>, raw: &RawValue, place: &Place<'_>) -> Option<Text> {
    let decoded = r.string(
        raw,
        &format!(
            "the text of variant `{}` of prompt `{}`",
            place.variant, place.id
        ),
    )?;
    let mut parts: Vec<Part> = Vec::new();
    let mut ok = true;
    // An unknown key is one error per text, however often it is written, noting its
    // other places.
    let mut unknown = Repeats::default();
    for token in Syntax::TightBraces.tokenize(&decoded, 0) {
        match token {
            Token::Placeholder { span, name, .. } => {
                let key = &decoded[name];
                match place.keys.binary_search_by(|k| k.name.as_str().cmp(key)) {
                    Ok(i) => parts.push(Part::Key(i)),
                    Err(_) if !place.known => ok = false,
                    Err(_) => {
                        ok = false;
                        let at = r.inside_string(raw, span);
                        if unknown.again(key, r.source, &at) {
                            continue;
                        }
                        let d = Diagnostic::new(format!(
                            "unknown placeholder `{{{{{key}}}}}` in variant `{}` of prompt `{}`",
                            place.variant, place.id
                        ))
                        .at(r.source, at.clone());
                        let d = match closest(key, place.keys.iter().map(|k| k.name.as_str())) {
                            Some(c) => d.with_help(format!("did you mean `{{{{{c}}}}}`?")),
                            None => d.with_help(format!("add `{key}` to {}", place.registry)),
                        };
                        unknown.report(key, r.problems, d, r.source, &at);
                    }
                }
            }
            Token::Text(range) | Token::Escape(range) | Token::InvalidBrace(range) => {
                let piece = &decoded[range];
                match parts.last_mut() {
                    Some(Part::Literal(prev)) => prev.push_str(piece),
                    _ => parts.push(Part::Literal(piece.to_owned())),
                }
            }
        }
    }
    unknown.note(r.problems, "also written");
    let literal_run = parts
        .iter()
        .any(|p| matches!(p, Part::Literal(s) if s.contains("\n\n\n")));
    ok.then_some(Text { parts, literal_run })
}
