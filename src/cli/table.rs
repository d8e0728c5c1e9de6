//! A command as one table, after ripgrep's `flags/defs.rs`: each option
//! once, with its value's name, its help, its default and its parser. The
//! `--help` is made from the table, so no default is written twice.

use std::ffi::OsString;
use std::sync::OnceLock;

use super::args::{self, CliError, Spec};
use super::values::Value;
use crate::conform::ReadArgs;

/// What an option is when it is not given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preset {
    /// Nothing to say.
    None,
    /// Parsed before the command line is, and shown.
    Value(&'static str),
    /// Parsed as the first, shown as the second (`\n` breaks its line).
    Means(&'static str, &'static str),
    /// Only shown: the command's start or finish does what it says.
    Said(&'static str),
    /// It must be given.
    Required,
}

/// What giving an option does.
#[derive(Clone, Copy, Debug)]
pub enum Set<D> {
    /// A flag.
    Flag(fn(&mut D)),
    /// An option that takes a value.
    Value(fn(&mut D, Value) -> Result<(), CliError>),
}

/// One option of a command, all of it.
#[derive(Clone, Copy, Debug)]
pub struct Opt<D: 'static> {
    /// Its name, and its value's.
    pub spec: Spec,
    /// Its help, a `\n` between lines; empty for one the help hides.
    pub doc: &'static str,
    /// What it is when not given.
    pub preset: Preset,
    /// An option it cannot be given with, shown with it as one choice.
    pub or: Option<&'static str>,
    /// Given, the command does something else and takes no arguments.
    pub alone: bool,
    /// What giving it does.
    pub set: Set<D>,
}

impl<D> Opt<D> {
    /// An option that takes a value called `value`.
    pub const fn value(
        long: &'static str,
        value: &'static str,
        set: fn(&mut D, Value) -> Result<(), CliError>,
    ) -> Opt<D> {
        Opt::new(Spec::valued(long, value), Set::Value(set))
    }

    /// A flag.
    pub const fn flag(long: &'static str, set: fn(&mut D)) -> Opt<D> {
        Opt::new(Spec::flag(long), Set::Flag(set))
    }

    const fn new(spec: Spec, set: Set<D>) -> Opt<D> {
        Opt {
            spec,
            doc: "",
            preset: Preset::None,
            or: None,
            alone: false,
            set,
        }
    }

    /// With its help.
    pub const fn doc(mut self, doc: &'static str) -> Opt<D> {
        self.doc = doc;
        self
    }

    /// With its default.
    pub const fn preset(mut self, preset: Preset) -> Opt<D> {
        self.preset = preset;
        self
    }

    /// Not to be given with `other`.
    pub const fn or(mut self, other: &'static str) -> Opt<D> {
        self.or = Some(other);
        self
    }

    /// With it, the command takes no arguments.
    pub const fn alone(mut self) -> Opt<D> {
        self.alone = true;
        self
    }

    fn apply(&self, draft: &mut D, raw: &std::ffi::OsStr) -> Result<(), CliError> {
        match self.set {
            Set::Flag(set) => {
                set(draft);
                Ok(())
            }
            Set::Value(set) => set(
                draft,
                Value {
                    option: self.spec.long,
                    raw,
                },
            ),
        }
    }

    /// `--name VALUE`, as the usage and the help show it.
    fn shown(&self) -> String {
        match self.spec.value {
            Some(value) => format!("{} {value}", self.spec.long),
            None => self.spec.long.to_owned(),
        }
    }
}

/// A command: its table, the help around it, and what it runs with.
#[derive(Debug)]
pub struct Command<D: 'static, T> {
    /// Its name, e.g. `check`.
    pub name: &'static str,
    /// Its help between the usage and the options.
    pub about: &'static str,
    /// What its arguments are called (it needs one or more); `None`: none.
    pub arguments: Option<&'static str>,
    /// The column each option's help starts at.
    pub column: usize,
    /// Its options, in the help's order; `-h` and `-V` are every command's.
    pub opts: &'static [Opt<D>],
    /// What the options set before any is: placeholders the presets fill.
    pub start: fn(ReadArgs) -> D,
    /// What it runs with; the checks across options are here.
    pub finish: fn(D, Vec<OsString>) -> Result<T, CliError>,
    /// The help, once made.
    pub help: OnceLock<String>,
}

/// What the program needs of a subcommand, whatever its options become.
pub trait Table: Sync {
    /// Its name.
    fn name(&self) -> &'static str;
    /// Its `--help`, for a program called `program`.
    fn help(&'static self, program: &str) -> &'static str;
}

impl<D, T> Table for Command<D, T> {
    fn name(&self) -> &'static str {
        self.name
    }

    fn help(&'static self, program: &str) -> &'static str {
        self.help.get_or_init(|| {
            let mut help = format!("{}{}Options:\n", self.usage(program), self.about);
            for opt in self.opts.iter().filter(|o| !o.doc.is_empty()) {
                let shown = match opt.preset {
                    Preset::Value(s) | Preset::Means(_, s) | Preset::Said(s) => Some(s),
                    Preset::None | Preset::Required => None,
                };
                self.describe(&mut help, format!("  {}", opt.shown()), opt.doc, shown);
            }
            for (head, doc) in [
                ("-h, --help", "print this help"),
                ("-V, --version", "print the version"),
            ] {
                self.describe(&mut help, format!("  {head}"), doc, None);
            }
            help
        })
    }
}

impl<D, T> Command<D, T> {
    /// Reads the arguments after the command's name: [`args::read`]'s
    /// rules, the presets, the options given, the arguments, then the
    /// checks across options.
    ///
    /// # Errors
    ///
    /// [`CliError`] names the first problem found.
    pub fn parse(&self, args: &[OsString], read_args: ReadArgs) -> Result<T, CliError> {
        let given = self.given(args)?;
        let mut draft = (self.start)(read_args);
        for opt in self.opts {
            if let Preset::Value(value) | Preset::Means(value, _) = opt.preset {
                opt.apply(&mut draft, value.as_ref())?;
            }
        }
        // In the line's order, so that the first mistake on it is named.
        for (long, value) in &given.options {
            if let Some(opt) = self.opts.iter().find(|o| o.spec.long == *long) {
                opt.apply(&mut draft, value.as_deref().unwrap_or_default())?;
            }
        }
        let named = |o: &&Opt<D>| given.flag(o.spec.long);
        let alone = self.opts.iter().filter(named).any(|o| o.alone);
        match (self.arguments.filter(|_| !alone), given.arguments.first()) {
            (None, Some(stray)) => return Err(CliError::UnexpectedArgument(stray.clone())),
            (Some(name), None) => return Err(CliError::MissingArgument(name)),
            _ => {}
        }
        for opt in self.opts.iter().filter(named) {
            if let Some(other) = opt.or.filter(|other| given.flag(other)) {
                return Err(CliError::Exclusive(opt.spec.long, other));
            }
        }
        let missing = self
            .opts
            .iter()
            .find(|o| o.preset == Preset::Required && !named(o));
        if let Some(opt) = missing {
            return Err(CliError::Required(opt.spec.long));
        }
        (self.finish)(draft, given.arguments)
    }

    /// The options and arguments given, in order, as [`args::read`]
    /// reads them.
    ///
    /// # Errors
    ///
    /// [`CliError`] names the first problem found.
    pub fn given(&self, args: &[OsString]) -> Result<args::Given, CliError> {
        let mut specs: Vec<Spec> = self.opts.iter().map(|o| o.spec).collect();
        specs.extend([args::HELP, args::VERSION]);
        args::read(&specs, args.to_vec())
    }

    /// `Usage: PROGRAM NAME [--option VALUE]... ARGUMENT...`, wrapped.
    fn usage(&self, program: &str) -> String {
        const WIDTH: usize = 77;
        let lead = format!("Usage: {program} {} ", self.name);
        let shown = self.opts.iter().filter(|o| !o.doc.is_empty());
        let words = shown.filter_map(|opt| {
            if self.opts.iter().any(|o| o.or == Some(opt.spec.long)) {
                return None;
            }
            let other = self.opts.iter().find(|o| Some(o.spec.long) == opt.or);
            Some(match (other, opt.preset) {
                (Some(other), _) => format!("[{} | {}]", opt.shown(), other.shown()),
                (None, Preset::Required) => opt.shown(),
                (None, _) => format!("[{}]", opt.shown()),
            })
        });
        // The arguments go on the options' line only with a column to spare.
        let arguments = self.arguments.map(|name| (format!("{name}..."), WIDTH - 1));
        let mut lines = vec![String::new()];
        for (word, width) in words.map(|word| (word, WIDTH)).chain(arguments) {
            match lines.last_mut() {
                Some(line) if line.is_empty() => line.push_str(&word),
                Some(line) if lead.len() + line.len() + 1 + word.len() <= width => {
                    line.push(' ');
                    line.push_str(&word);
                }
                _ => lines.push(word),
            }
        }
        let indent = format!("\n{:1$}", "", lead.len());
        format!("{lead}{}\n", lines.join(&indent))
    }

    /// An option's lines in the help: its help from [`Command::column`] on
    /// (below its name when the name reaches it), and its default after
    /// the help where it fits on the line, else on lines of its own.
    fn describe(&self, out: &mut String, mut head: String, doc: &str, shown: Option<&str>) {
        let mut lines: Vec<String> = doc.lines().map(str::to_owned).collect();
        if let Some(shown) = shown {
            let default = format!("[default: {shown}]");
            let mut default = default.lines().map(str::to_owned);
            let first = default.next().unwrap_or_default();
            match lines.last_mut() {
                Some(last) if self.column + last.len() + 1 + first.len() <= 79 => {
                    last.push(' ');
                    last.push_str(&first);
                }
                _ => lines.push(first),
            }
            lines.extend(default);
        }
        if head.len() + 2 > self.column {
            out.push_str(&head);
            out.push('\n');
            head.clear();
        }
        for (i, line) in lines.iter().enumerate() {
            let at = if i == 0 { head.as_str() } else { "" };
            out.push_str(&format!("{at:<width$}{line}\n", width = self.column));
        }
    }
}
