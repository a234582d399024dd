//! Front ends: readers from another system's prompt files into promptic.
//!
//! Each foreign format is one module here (see `docs/design/front-ends.md`). A front end
//! renders whitespace exactly as the system it comes from does: a migrated prompt must stay
//! byte-identical, since providers cache prompt prefixes by bytes.

pub mod dotprompt;
mod front;
pub mod jinja;
pub mod keep;
pub mod markdown;
pub mod promptengine;

pub use front::{
    Against, AllPrompts, Claim, Format, Found, Given, GivenValue, LoadedPrompt, Origin, Output,
    Place, Takes, ValueUse, Values, unread_value, version_of,
};

/// Every format, in the order a prompt name's files are looked for. Adding a format is
/// one module and one line here (and its [`FrontEnd`]).
pub static FORMATS: [&dyn Format; 4] = [
    &promptengine::PROMPTENGINE,
    &dotprompt::DOTPROMPT,
    &jinja::JINJA,
    &markdown::MARKDOWN,
];

use crate::diagnostic::Diagnostic;
use crate::load::Project;

/// The front end that reads a prompt of a prompts folder, known by the file its name
/// reaches. Markdown files hold chat prompts, keep agent prompts and family members too;
/// their own readers tell those apart by what the file says.
///
/// ```
/// use promptic::formats::FrontEnd;
/// use promptic::load::Project;
///
/// let dir = std::env::temp_dir().join(format!("promptic-doc-front-end-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// std::fs::write(dir.join("note.md"), "Hello $who.")?;
/// std::fs::write(dir.join("trip.md.j2"), "Trip for {{ who }}.")?;
/// std::fs::write(dir.join("ticket.prompt"), "Ticket for {{who}}.")?;
/// let project = Project::open(&dir, "prompts")?;
/// assert_eq!(project.front_end("note")?, Some((FrontEnd::Markdown, "note.md".to_owned())));
/// assert_eq!(project.front_end("trip.md.j2")?, Some((FrontEnd::Jinja, "trip.md.j2".to_owned())));
/// assert_eq!(project.front_end("ticket")?.map(|(f, _)| f), Some(FrontEnd::Dotprompt));
/// assert_eq!(project.front_end("nothing")?, None);
///
/// // A name must say which file it is.
/// std::fs::write(dir.join("note.prompt"), "Hi")?;
/// let error = project.front_end("note").unwrap_err().to_string();
/// assert!(error.starts_with("error: the prompt `note` has two files: `prompts/note.md` and `prompts/note.prompt`"));
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FrontEnd {
    /// `NAME.md`: `$name` placeholders (solstone's format), chat sections, keep agent
    /// prompts, family members.
    Markdown,
    /// `NAME.md.j2` or `NAME.j2`.
    Jinja,
    /// `NAME.prompt` (a `_NAME.prompt` file is a partial, no prompt).
    Dotprompt,
    /// A prompt of a PromptEngine store folder (one with `_meta/prompt_manifest.json`),
    /// by id, or one of its assemblies.
    PromptEngine,
}

impl FrontEnd {
    /// Every front end a prompt name can reach, in the order their files are looked for.
    pub const ALL: [FrontEnd; 4] = [
        FrontEnd::PromptEngine,
        FrontEnd::Dotprompt,
        FrontEnd::Jinja,
        FrontEnd::Markdown,
    ];

    /// Its [`Format`]: how its files are claimed, loaded, checked and rendered.
    pub fn format(self) -> &'static dyn Format {
        match self {
            FrontEnd::Markdown => &markdown::MARKDOWN,
            FrontEnd::Jinja => &jinja::JINJA,
            FrontEnd::Dotprompt => &dotprompt::DOTPROMPT,
            FrontEnd::PromptEngine => &promptengine::PROMPTENGINE,
        }
    }

    /// Its name, as messages and `promptic list --json` say it.
    pub fn name(self) -> &'static str {
        self.format().name()
    }

    /// The endings of its prompt files, in the order they are looked for.
    pub fn endings(self) -> &'static [&'static str] {
        self.format().endings()
    }

    /// A prompt's name without the ending of its file, if the name was written with one
    /// (`agents/analyst.md.j2` is `agents/analyst`).
    ///
    /// ```
    /// use promptic::formats::FrontEnd;
    ///
    /// assert_eq!(FrontEnd::prompt_name("agents/analyst.md.j2"), "agents/analyst");
    /// assert_eq!(FrontEnd::prompt_name("ticket.prompt"), "ticket");
    /// assert_eq!(FrontEnd::prompt_name("note"), "note");
    /// ```
    pub fn prompt_name(name: &str) -> &str {
        FrontEnd::ALL
            .iter()
            .flat_map(|f| f.endings())
            .find_map(|ending| name.strip_suffix(ending).filter(|n| !n.is_empty()))
            .unwrap_or(name)
    }
}

impl Project {
    /// The front end of prompt `name` and its file (relative to the folder), found by the
    /// file that exists: `Ok(None)` when none does. Anything by that name but a folder
    /// counts (a link, a FIFO), so that the front end's guarded reader refuses it with a
    /// message, not "not found". Two files for one name are an error: a prompt's name must
    /// say which file it is.
    pub fn front_end(&self, name: &str) -> Result<Option<(FrontEnd, String)>, Diagnostic> {
        let name = FrontEnd::prompt_name(name);
        let plain = !name.is_empty()
            && !name.contains('\\')
            && name
                .split('/')
                .all(|s| !s.is_empty() && s != "." && s != "..");
        if !plain {
            return Ok(None);
        }
        // A folder a format reads whole is that format's alone: every name is its to
        // load (an unknown one with a did-you-mean).
        if let Some(front_end) = FrontEnd::ALL
            .into_iter()
            .find(|f| f.format().whole_folder(self))
        {
            let listed = front_end.format().list(self).unwrap_or_default();
            let file = listed
                .into_iter()
                .find(|(n, _)| n == name)
                .map_or_else(|| crate::store::layout::MANIFEST.to_owned(), |(_, f)| f);
            return Ok(Some((front_end, file)));
        }
        // Every file by the name, of one front end too (`x.md.j2` and `x.j2`).
        let mut found: Vec<(FrontEnd, String)> = Vec::new();
        for front_end in FrontEnd::ALL {
            for ending in front_end.endings() {
                let file = format!("{name}{ending}");
                if crate::source::names_a_file(&self.dir.join(&file)) {
                    found.push((front_end, file));
                }
            }
        }
        match found.len() {
            0 | 1 => Ok(found.pop()),
            _ => {
                let files: Vec<String> = found
                    .iter()
                    .rev()
                    .map(|(_, f)| format!("`{}/{f}`", self.display))
                    .collect();
                let count = match files.len() {
                    2 => "two",
                    3 => "three",
                    _ => "four",
                };
                Err(Diagnostic::new(format!(
                    "the prompt `{name}` has {count} files: {}",
                    files.join(" and ")
                ))
                .with_help("keep one of them: a prompt's name must say which file it is"))
            }
        }
    }
}
