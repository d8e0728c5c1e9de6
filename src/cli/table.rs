//! A command as one table (ripgrep's `flags/defs.rs` is the model): each
//! option once, with the name of its value, its lines of help, its
//! default and the parser that sets it. The command's `--help` is made
//! from the table ([`Command::help`]), and [`Command::parse`] applies it:
//! [`args::read`]'s rules, every default, every option given, then the
//! checks across options.

use std::ffi::{OsStr, OsString};
use std::sync::OnceLock;

use super::args::{self, CliError, Spec};
use super::values::Value;
use crate::conform::ReadArgs;

/// What an option is when it is not given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preset {
    /// Off, or nothing to say: the help shows no default.
    None,
    /// Read by the option's parser before the command line is, and shown
    /// in the help as it is.
    Value(&'static str),
    /// Read as a `Value` is, and shown as the second: what it stands for.
    Means(&'static str, &'static str),
    /// Set by the command's start, as the help says (a seed from the
    /// clock); a `\n` in it breaks the help's line there.
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
    /// `--help` and `--version`, read before the table is.
    Early,
}

/// One option of a command, all of it.
#[derive(Clone, Copy, Debug)]
pub struct Opt<D: 'static> {
    /// Its names, and its value's.
    pub spec: Spec,
    /// Its lines of help, one `\n` apart, as the help prints them; `None`
    /// for an option the help does not show.
    pub doc: Option<&'static str>,
    /// What it is when not given.
    pub preset: Preset,
    /// An option it cannot be given with; the usage shows them as one
    /// choice, `[--this X | --that Y]`, and the other not on its own.
    pub or: Option<&'static str>,
    /// What giving it does.
    pub set: Set<D>,
}

impl<D> Opt<D> {
    /// An option called `long` that takes a value called `value`.
    pub const fn value(
        long: &'static str,
        value: &'static str,
        set: fn(&mut D, Value) -> Result<(), CliError>,
    ) -> Opt<D> {
        Opt::new(Spec::valued(long, value), Set::Value(set))
    }

    /// A flag called `long`.
    pub const fn flag(long: &'static str, set: fn(&mut D)) -> Opt<D> {
        Opt::new(Spec::flag(long), Set::Flag(set))
    }

    /// `-h`, `--help`, which every command has.
    pub const fn help(doc: &'static str) -> Opt<D> {
        Opt::new(args::HELP, Set::Early).doc(doc)
    }

    /// `-V`, `--version`, which every command has.
    pub const fn version(doc: &'static str) -> Opt<D> {
        Opt::new(args::VERSION, Set::Early).doc(doc)
    }

    const fn new(spec: Spec, set: Set<D>) -> Opt<D> {
        let (doc, preset, or) = (None, Preset::None, None);
        Opt {
            spec,
            doc,
            preset,
            or,
            set,
        }
    }

    /// With its help.
    pub const fn doc(mut self, doc: &'static str) -> Opt<D> {
        self.doc = Some(doc);
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

    fn apply(&self, draft: &mut D, raw: &OsStr) -> Result<(), CliError> {
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
            Set::Early => Ok(()),
        }
    }
}

/// A command: its table, its help around the table, and how what the
/// table sets becomes what the command runs with.
#[derive(Debug)]
pub struct Command<D: 'static, T> {
    /// Its name, e.g. `check`.
    pub name: &'static str,
    /// Its help between the usage and the options.
    pub about: &'static str,
    /// What its arguments are called, e.g. `PATH`: it needs one or more.
    /// `None`: it takes none.
    pub arguments: Option<&'static str>,
    /// The column the help of each option starts at.
    pub column: usize,
    /// Its options, in the order the help lists them.
    pub opts: &'static [Opt<D>],
    /// What the options set, before any is: a [`Preset::Said`] is set here.
    pub start: fn(ReadArgs) -> D,
    /// What the command runs with, from what the options set and the
    /// arguments: the checks across options are here.
    pub finish: fn(D, Vec<OsString>) -> Result<T, CliError>,
    /// The help, once made.
    pub help: OnceLock<String>,
}

/// What the program's subcommands share, whatever their options become.
pub trait Table: Sync {
    /// Its name, e.g. `check`.
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
            let mut help = self.usage(program);
            help.push_str(self.about);
            help.push_str("Options:\n");
            for opt in self.opts {
                self.describe(opt, &mut help);
            }
            help
        })
    }
}

/// The widest a line of the usage gets.
const USAGE_WIDTH: usize = 77;
/// The widest a line of an option's help gets with its default.
const WIDTH: usize = 79;

impl<D, T> Command<D, T> {
    /// Reads `args`, the arguments after the command's name.
    ///
    /// # Errors
    ///
    /// [`CliError`] names the first problem found.
    pub fn parse(&self, args: &[OsString], read_args: ReadArgs) -> Result<T, CliError> {
        let specs: Vec<Spec> = self.opts.iter().map(|o| o.spec).collect();
        let given = args::read(&specs, args.to_vec())?;
        let mut draft = (self.start)(read_args);
        for opt in self.opts {
            if let Preset::Value(value) | Preset::Means(value, _) = opt.preset {
                opt.apply(&mut draft, OsStr::new(value))?;
            }
        }
        for opt in self.opts.iter().filter(|o| given.flag(o.spec.long)) {
            opt.apply(&mut draft, given.value(opt.spec.long).unwrap_or_default())?;
        }
        match (self.arguments, given.arguments.first()) {
            (None, Some(stray)) => return Err(CliError::UnexpectedArgument(stray.clone())),
            (Some(name), None) => return Err(CliError::MissingArgument(name)),
            _ => {}
        }
        for opt in self.opts.iter().filter(|o| given.flag(o.spec.long)) {
            if let Some(other) = opt.or.filter(|other| given.flag(other)) {
                return Err(CliError::Exclusive(opt.spec.long, other));
            }
        }
        for opt in self.opts.iter().filter(|o| o.preset == Preset::Required) {
            if !given.flag(opt.spec.long) {
                return Err(CliError::Required(opt.spec.long));
            }
        }
        (self.finish)(draft, given.arguments)
    }

    /// `Usage: PROGRAM NAME [--option VALUE]... ARGUMENT...`, wrapped.
    fn usage(&self, program: &str) -> String {
        let lead = format!("Usage: {program} {} ", self.name);
        let shown = |spec: Spec| match spec.value {
            Some(value) => format!("{} {value}", spec.long),
            None => spec.long.to_owned(),
        };
        let words = self.opts.iter().filter_map(|opt| {
            let hidden = opt.doc.is_none() || matches!(opt.set, Set::Early);
            if hidden || self.opts.iter().any(|o| o.or == Some(opt.spec.long)) {
                return None;
            }
            let other = self.opts.iter().find(|o| Some(o.spec.long) == opt.or);
            Some(match (other, opt.preset) {
                (Some(other), _) => format!("[{} | {}]", shown(opt.spec), shown(other.spec)),
                (None, Preset::Required) => shown(opt.spec),
                (None, _) => format!("[{}]", shown(opt.spec)),
            })
        });
        // The arguments come last, on the options' line only with a
        // column to spare.
        let arguments = self
            .arguments
            .map(|name| (format!("{name}..."), USAGE_WIDTH - 1));
        let mut lines = vec![String::new()];
        for (word, width) in words.map(|word| (word, USAGE_WIDTH)).chain(arguments) {
            match lines.last_mut() {
                Some(line) if line.is_empty() => line.push_str(&word),
                Some(line) if lead.len() + line.len() + 1 + word.len() <= width => {
                    line.push(' ');
                    line.push_str(&word);
                }
                _ => lines.push(word),
            }
        }
        format!(
            "{lead}{}\n",
            lines.join(&format!("\n{:1$}", "", lead.len()))
        )
    }

    /// An option's lines in the help: its names, its help from
    /// [`Command::column`] on (below them when they reach it), and its
    /// default after the help when it fits, else on a line of its own.
    fn describe(&self, opt: &Opt<D>, out: &mut String) {
        let Some(doc) = opt.doc else { return };
        let mut head = match opt.spec.short {
            Some(short) => format!("  {short}, {}", opt.spec.long),
            None => format!("  {}", opt.spec.long),
        };
        if let Some(value) = opt.spec.value {
            head = format!("{head} {value}");
        }
        let mut lines: Vec<String> = doc.lines().map(str::to_owned).collect();
        if let Preset::Value(shown) | Preset::Means(_, shown) | Preset::Said(shown) = opt.preset {
            let default = format!("[default: {shown}]");
            let mut default = default.lines().map(str::to_owned);
            let first = default.next().unwrap_or_default();
            match lines.last_mut() {
                Some(last) if self.column + last.len() + 1 + first.len() <= WIDTH => {
                    last.push(' ');
                    last.push_str(&first);
                }
                _ => lines.push(first),
            }
            lines.extend(default);
        }
        let indent = " ".repeat(self.column);
        if head.len() + 2 > self.column {
            out.push_str(&head);
            out.push('\n');
            head = indent.clone();
        }
        for (i, line) in lines.iter().enumerate() {
            let at = if i == 0 { &head } else { &indent };
            out.push_str(&format!("{at:<width$}{line}\n", width = self.column));
        }
    }
}
