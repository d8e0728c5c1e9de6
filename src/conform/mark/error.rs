//! Why a step of marking could not be done, an enum a step: each prints
//! the sentence the reports show, word for word.

use std::io;

use thiserror::Error;

/// What is wrong with the text of `--weights` ([`super::score::Weights::parse`]).
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum WeightsError {
    /// An item without `=`.
    #[error("{0:?} is not PART=WEIGHT")]
    NotPartWeight(String),
    /// A weight that is not a number from 0 to 1000.
    #[error("{0:?} is not a weight from 0 to 1000")]
    NotAWeight(String),
    /// A part of no such name.
    #[error("{0:?} is not a part (correctness, tests or memory)")]
    NotAPart(String),
}

/// Why a submission's folder is not read, as a predicate of the folder
/// ([`super::submission::Submission::open`]): then nothing of it is.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum FolderError {
    /// It cannot be looked at or listed; the kind, not the system's
    /// message, so that every machine words it alike.
    #[error("cannot be read ({0})")]
    Unreadable(io::ErrorKind),
    /// It is a link, and links are not followed.
    #[error("is a link (not followed: give the folder it leads to)")]
    Link,
    /// It is something else: `is a file`, `is a FIFO`.
    #[error("{0}, not a folder")]
    NotAFolder(&'static str),
}

/// Why the compiled program's imports could not be read
/// ([`super::restrict::imports`]): then the restrictions read from them
/// were not checked.
#[derive(Debug, Error)]
pub enum ImportsError {
    /// The program cannot be read.
    #[error("cannot read the program: {0}")]
    Unreadable(io::Error),
    /// It is not a program of a format this kit reads.
    #[error("not a program this kit can read: {0}")]
    NotAProgram(object::Error),
    /// Its table of imports cannot be read.
    #[error("cannot read its imports: {0}")]
    NoImportTable(object::Error),
    /// It imports nothing: what it calls cannot be told.
    #[error("it imports nothing (linked statically?): the functions it calls could not be read")]
    Static,
}

/// Why the memory was not checked ([`super::memory`]).
#[derive(Clone, Copy, Debug, Error, PartialEq, Eq)]
pub enum CheckerError {
    /// `--memcheck none`.
    #[error("not checked (--memcheck none)")]
    NotAsked,
    /// valgrind was asked for, and is not installed.
    #[error("not checked: valgrind is not installed")]
    NoValgrind,
    /// Neither valgrind nor an AddressSanitizer build is to be had.
    #[error(
        "not checked: valgrind is not installed, and the compiler cannot build with \
         AddressSanitizer"
    )]
    NoChecker,
    /// AddressSanitizer was asked for, and the compiler cannot build with it.
    #[error("not checked: the compiler cannot build with AddressSanitizer")]
    NoAsan,
}

/// Why the peak memory was not measured ([`super::memory`]).
#[derive(Clone, Copy, Debug, Error, PartialEq, Eq)]
pub enum PeakError {
    /// GNU `time`, which measures it, is not installed.
    #[error("not measured: GNU time is not installed")]
    NoTime,
    /// No run gave a figure.
    #[error("not measured: no run was measured")]
    NoRun,
}

/// Why a plain file of a submission is not read
/// ([`super::submission::Submission::read`]).
#[derive(Clone, Copy, Debug, Error, PartialEq, Eq)]
pub enum FileError {
    /// Opening or looking at it failed: `cannot be opened (permission
    /// denied)`; the kind, not the system's message, as for folders.
    #[error("cannot {0} ({1})")]
    Cannot(&'static str, io::ErrorKind),
    /// What was opened is not a plain file: `is a FIFO`.
    #[error("{0}")]
    NotPlain(&'static str),
    /// It is larger than any input the kit reads.
    #[error("is larger than 1 GiB")]
    TooLarge,
}
