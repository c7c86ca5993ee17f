//! The inputs a batch command's arguments name: files, standard input, and the files
//! of directories (those directly inside, or with `--recursive` the whole tree, in
//! name order), with where each one's output goes under `--out-dir`.
//!
//! In a directory only regular files (symbolic links followed) whose extension is one
//! of `--ext` are taken; files named on the command line are always read. A directory
//! that cannot be read, a symbolic link that leads nowhere and a link back to a folder
//! that contains it (a loop) each become an input whose error is reported in its turn;
//! the walk goes on.

use std::collections::HashMap;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

use crate::input::Source;
use crate::Failure;

/// The extensions taken from directories by default.
pub const DEFAULT_EXTENSIONS: &str = "bin,cso,dxbc,fxo,pso,vso";

/// One input of a batch.
#[derive(Debug, Clone)]
pub struct Input {
    /// A file, or standard input.
    pub source: Source,
    /// Its path relative to the directory argument it was found in, or its file name
    /// (`None` for standard input): where its output goes under `--out-dir`.
    pub relative: Option<PathBuf>,
    /// Why it cannot be read, when the walk already knows (a loop, a dangling link, a
    /// folder that cannot be listed).
    pub error: Option<String>,
}

impl Input {
    /// An input read from `source`, with no error yet.
    pub fn new(source: Source) -> Input {
        let relative = match &source {
            Source::Stdin => None,
            Source::File(p) => p.file_name().map(PathBuf::from),
        };
        Input { source, relative, error: None }
    }

    /// The name in messages.
    pub fn name(&self) -> std::borrow::Cow<'_, str> {
        self.source.name()
    }
}

/// Which files a directory contributes.
#[derive(Debug, Clone)]
pub struct Walk {
    /// Walk subdirectories too (`--recursive`), else only the files directly inside.
    pub recursive: bool,
    /// Lower-case extensions without the dot; `None`: every file.
    pub extensions: Option<Vec<String>>,
}

impl Walk {
    /// From `--recursive` and `--ext` (`*` or empty: every file).
    pub fn new(recursive: bool, ext: &str) -> Walk {
        let list: Vec<String> = ext
            .split(',')
            .map(|e| e.trim().trim_start_matches('.').to_ascii_lowercase())
            .filter(|e| !e.is_empty())
            .collect();
        let every = list.is_empty() || list.iter().any(|e| e == "*");
        Walk { recursive, extensions: if every { None } else { Some(list) } }
    }

    fn takes(&self, path: &Path) -> bool {
        match &self.extensions {
            None => true,
            Some(list) => {
                path.extension().map(|e| e.to_string_lossy().to_ascii_lowercase()).is_some_and(|e| list.contains(&e))
            }
        }
    }
}

/// The inputs `args` name (none: standard input). The second value is true when a
/// directory was among them (outputs are then labelled even if it held one file).
pub fn expand(args: &[OsString], walk: &Walk) -> (Vec<Input>, bool) {
    if args.is_empty() {
        return (vec![Input::new(Source::Stdin)], false);
    }
    let mut inputs = Vec::new();
    let mut any_dir = false;
    for arg in args {
        let source = Source::from_arg(arg);
        let dir = match &source {
            Source::File(p) if p.is_dir() => p.clone(),
            _ => {
                inputs.push(Input::new(source));
                continue;
            }
        };
        any_dir = true;
        walk_dir(&dir, walk, &mut inputs);
    }
    (inputs, any_dir)
}

fn walk_dir(root: &Path, walk: &Walk, inputs: &mut Vec<Input>) {
    let walker = walkdir::WalkDir::new(root)
        .follow_links(true)
        .min_depth(1)
        .max_depth(if walk.recursive { usize::MAX } else { 1 })
        .sort_by_file_name();
    for entry in walker {
        match entry {
            Ok(e) => {
                if !e.file_type().is_file() || !walk.takes(e.path()) {
                    continue;
                }
                let relative = e.path().strip_prefix(root).map(Path::to_path_buf).ok();
                inputs.push(Input { source: Source::File(e.path().to_path_buf()), relative, error: None });
            }
            Err(err) => {
                let path = err.path().map(Path::to_path_buf).unwrap_or_else(|| root.to_path_buf());
                // A dangling link of an extension not taken is not an input at all.
                if err.loop_ancestor().is_none()
                    && err.io_error().is_some_and(|e| e.kind() == std::io::ErrorKind::NotFound)
                    && !walk.takes(&path)
                {
                    continue;
                }
                let why = match (err.loop_ancestor(), err.io_error()) {
                    (Some(ancestor), _) => {
                        format!(
                            "a link back to {}, which contains it (a loop): not followed",
                            ancestor.to_string_lossy()
                        )
                    }
                    (None, Some(io)) if io.kind() == std::io::ErrorKind::NotFound => {
                        "a symbolic link to nothing (No such file or directory)".to_string()
                    }
                    (None, Some(io)) => io.to_string(),
                    (None, None) => err.to_string(),
                };
                let relative = path.strip_prefix(root).map(Path::to_path_buf).ok();
                let message = format!("{}: {why}", path.to_string_lossy());
                inputs.push(Input { source: Source::File(path), relative, error: Some(message) });
            }
        }
    }
}

/// Where each input's output goes under `--out-dir DIR`: DIR, then the input's path
/// relative to its directory argument (or its file name; `stdin` for standard input)
/// with `extension`. Two inputs that would write the same file are refused before
/// anything is written.
pub fn out_paths(inputs: &[Input], dir: &Path, extension: &str) -> Result<Vec<PathBuf>, Failure> {
    let mut seen: HashMap<PathBuf, usize> = HashMap::with_capacity(inputs.len());
    let mut paths = Vec::with_capacity(inputs.len());
    for (i, input) in inputs.iter().enumerate() {
        let relative = input.relative.clone().unwrap_or_else(|| PathBuf::from("stdin"));
        let mut path = dir.join(relative);
        let stem: OsString = path.file_stem().map_or_else(|| OsString::from("stdin"), OsStr::to_os_string);
        let mut name = stem;
        name.push(".");
        name.push(extension);
        path.set_file_name(name);
        if let Some(&first) = seen.get(&path) {
            return Err(Failure::input(format!(
                "{} and {} would both be written to {}",
                inputs[first].name(),
                input.name(),
                path.to_string_lossy()
            )));
        }
        seen.insert(path.clone(), i);
        paths.push(path);
    }
    Ok(paths)
}
