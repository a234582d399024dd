//! The Jinja front end: `*.j2` and `*.md.j2` templates, read and rendered byte for byte
//! as Jinja2 does, for a supported subset; everything else is a located error saying it
//! is not supported, never text passed through.
//!
//! Supported: `{{ expr }}` with names, `a.b`, `a[b]`, slices, literals, lists and dicts
//! (keyed by strings); arithmetic (`+ - * / // % **`, signs, `~`) and inline `if`; the
//! string and dict methods data has; forty filters and twenty-five tests, arguments by
//! position or name; `{% if %}`, `{% for %}` with `loop` (`previtem`, `nextitem`, `cycle`
//! too), `{% include %}`, `{% set %}` (and `namespace()`), `{% filter %}`, `range()`,
//! `{% extends %}` with `{% block %}` and `super()`, `{% macro %}` with its calls,
//! `{% raw %}`, comments, whitespace control and the environment options of [`Options`].
//! The book's Jinja chapter lists them.
//!
//! Values are [`Value`]s, as Python holds them: dicts in the order their keys were
//! written, integers exact however long. Arithmetic is exact within 128 bits; a result
//! beyond is a located error.
//!
//! Where promptic is stricter than Jinja2, on purpose: printing, looping over or
//! filtering (other than with `default`) a value that is not defined is an error, where
//! Jinja2 prints nothing; `loop` is refused outside a `for` of the same file; `d.items`
//! and other dict method names read as attributes are refused (Jinja2 gives the method,
//! not the key); include names may not hold `..` or `\`; include cycles are refused.
//! A template that extends another may hold, after `{% extends %}`, only blocks, `set`s
//! and macros (Jinja2 drops any other text there unseen); a block inside a `for` must be
//! `scoped`; a macro is called as a whole `{{ name(…) }}`, after its definition, with
//! every parameter that has no default; `super()` and a macro's call are whole tags.
//!
//! Known differences: a block or a macro's body sees the names `set` and the loop
//! variables around the place it is written, where Jinja2 gives it only the template's
//! top-level names; a filter that gives a generator in Jinja2 gives its list; `repr`
//! of a string escapes the characters Python does not print except unassigned code
//! points, which Python also escapes.

mod cache;
mod check;
#[doc(hidden)]
pub mod compiled;
mod data;
mod expr;
mod fence;
mod fields;
mod filters;
mod folder;
mod front;
mod lexer;
mod ops;
mod parser;
mod paths;
mod printf;
#[cfg(test)]
mod python_str;
mod render;
mod set;
mod slots;
mod uses;
pub(crate) mod value;

#[cfg(test)]
mod tests;

pub use crate::load::jinja_settings::Options;
pub use data::{JsonError, MAX_INT_DIGITS, Map, Number, Value};
pub use fields::{JinjaField, JinjaPrompt, check_names, check_paths, check_unused, unused};
pub use front::{JINJA, Jinja, LoadedJinja};
pub use paths::{PathStep, PathUse};
pub use render::{MAX_OUTPUT, MAX_STEPS};
pub use set::{ReadError, RenderValues, Templates};
pub use uses::NameUse;

use crate::diagnostic::{Diagnostic, Diagnostics, SourceFile};

/// One parsed template.
#[derive(Clone, Debug, PartialEq)]
pub struct Template {
    source: SourceFile,
    nodes: Vec<parser::Node>,
    /// Marked `{# cache: static #}` by its first comment, before any text.
    static_cache: bool,
    /// Its `{# cache_breakpoint #}` comments: how many top-level nodes come before each,
    /// and the comment's span.
    breakpoints: Vec<(usize, std::ops::Range<usize>)>,
    /// The template it extends, with the tag's span; loading the set puts the parent,
    /// its blocks replaced, at the end of `nodes`.
    extends: Option<(String, std::ops::Range<usize>)>,
    /// Its blocks, when it extends another.
    blocks: Vec<(String, Vec<parser::Node>)>,
    /// The macros it defines at its top level, for templates that import them.
    macros: Vec<parser::Macro>,
    /// The templates it imports macros from, with the tags.
    imports: Vec<(String, std::ops::Range<usize>)>,
}

impl Template {
    /// Parses `source` with `options`, or says where it goes outside the supported subset.
    /// A template that imports macros from another is read with the others, by
    /// [`Templates::load`].
    pub fn parse(source: &SourceFile, options: Options) -> Result<Template, Diagnostics> {
        Template::parse_importing(source, options, &mut |_: &str| {
            Err(Some(Diagnostic::new(
                "a template that imports macros is read with the templates it imports (`Templates::load`)",
            )))
        })
    }

    /// [`parse`](Self::parse), reading the templates it imports macros from through
    /// `import`.
    pub(crate) fn parse_importing(
        source: &SourceFile,
        options: Options,
        import: &mut parser::Import<'_>,
    ) -> Result<Template, Diagnostics> {
        // Jinja2 reads `\r\n` and a carriage return alone as line ends, as it reads `\n`,
        // and writes every one as `\n` (in text and in string literals alike). The template
        // keeps the text it was read as, which its spans point into.
        let lf;
        let source = if source.text().contains('\r') {
            let text = source.text().replace("\r\n", "\n").replace('\r', "\n");
            lf = SourceFile::new(source.path(), text);
            &lf
        } else {
            source
        };
        let segments = lexer::lex(source, &options)?;
        let parser::Parsed {
            nodes,
            breakpoints,
            extends,
            blocks,
            macros,
            imports,
        } = parser::parse(source, &segments, import)?;
        let mut fences = Vec::new();
        fence::check(source, &nodes, &mut fences);
        if !fences.is_empty() {
            let mut all = Diagnostics::default();
            fences.into_iter().for_each(|d| all.push(d));
            return Err(all);
        }
        let static_cache = matches!(
            segments.first(),
            Some(lexer::Segment::Comment { inner }) if source.text()[inner.clone()].trim() == cache::MARK
        );
        Ok(Template {
            source: source.clone(),
            nodes,
            static_cache,
            breakpoints,
            extends,
            blocks,
            macros,
            imports,
        })
    }

    /// Whether it is marked `{# cache: static #}`: it must render the same bytes on every
    /// turn at a level, and loading it checks that it writes no value into its text.
    pub fn is_static(&self) -> bool {
        self.static_cache
    }

    /// The file it was read from.
    pub fn source(&self) -> &SourceFile {
        &self.source
    }

    /// The names of the templates it includes directly, in order, and the one it
    /// extends, first.
    pub fn includes(&self) -> Vec<String> {
        let mut found = Vec::new();
        if let Some((parent, span)) = &self.extends {
            found.push((parent.clone(), span.clone()));
        }
        set::includes_of(&self.nodes, &mut found);
        for (_, body) in &self.blocks {
            set::includes_of(body, &mut found);
        }
        found.extend(self.imports.iter().cloned());
        found.into_iter().map(|(name, _)| name).collect()
    }

    /// The template it extends, if any.
    pub fn extends(&self) -> Option<&str> {
        self.extends.as_ref().map(|(name, _)| name.as_str())
    }
}

/// Whether a file name is a Jinja template: `*.j2` (which covers `*.md.j2`).
pub fn is_template(file_name: &str) -> bool {
    file_name.ends_with(".j2")
}
