//! The block structure of an SM4/5 program, defined once: `if`/`else`/`endif`,
//! `loop`/`endloop`, `switch`/`case`/`default`/`endswitch`, and where `break`,
//! `continue`, `case` and `default` may stand (the functional spec's flow-control
//! section, 22.7, and Microsoft's `if`, `else`, `loop`, `switch`, `case`, `break` and
//! `continue` (sm4 - asm) pages). A label (a subroutine body) and a hull-shader phase start afresh: every
//! block must be closed before them, and at the end of the program.
//!
//! The assembler, the validator and the interpreter's compiler all feed their
//! instructions' [`Flow`] to one [`Blocks`] and differ in what they
//! do with its answer: each open block carries the caller's data (a line and column, an
//! instruction position, jump targets to patch). The assembler checks only what a
//! program's text must have (it skips labels and phases and assembles a misplaced
//! `break`, `continue`, `case` or `default` as written, for the validator to refuse).

use crate::table::Flow;

/// The kind of an open block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BlockKind {
    /// `if_z`/`if_nz` ... `endif`.
    If,
    /// `loop` ... `endloop`.
    Loop,
    /// `switch` ... `endswitch`.
    Switch,
}

impl BlockKind {
    /// The instruction that opens it (`if`, `loop`, `switch`).
    pub fn opener(self) -> &'static str {
        match self {
            BlockKind::If => "if",
            BlockKind::Loop => "loop",
            BlockKind::Switch => "switch",
        }
    }

    /// The instruction that closes it (`endif`, `endloop`, `endswitch`).
    pub fn closer(self) -> &'static str {
        match self {
            BlockKind::If => "endif",
            BlockKind::Loop => "endloop",
            BlockKind::Switch => "endswitch",
        }
    }
}

/// An open block and the caller's data for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block<T> {
    /// `if`, `loop` or `switch`.
    pub kind: BlockKind,
    /// An `if` whose `else` was seen.
    pub has_else: bool,
    /// A `switch` whose `default` was seen.
    pub has_default: bool,
    /// The caller's data, given when the block opened.
    pub data: T,
}

/// What an instruction did to the structure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event<T> {
    /// Not a structured flow-control instruction (or `call`, `ret`...: no block effect).
    None,
    /// `if`, `loop`, `switch`: a block was opened (the innermost one now).
    Opened,
    /// `else` of the innermost `if`.
    Else,
    /// `endif`, `endloop`, `endswitch`: the block that closed.
    Closed(Block<T>),
    /// `case` or `default` of the innermost `switch`.
    Case,
    /// `break` (or `breakc`): leaves the block at this depth (0 is the outermost), the
    /// innermost `loop` or `switch`.
    Break {
        /// The depth of the block left.
        block: usize,
    },
    /// `continue` (or `continuec`): continues the `loop` at this depth.
    Continue {
        /// The depth of the loop continued.
        block: usize,
    },
    /// A label or a hull-shader phase with every block closed.
    Fresh,
}

/// What is wrong with the structure at an instruction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BlockError<T> {
    /// `else`, `endif`, `endloop` or `endswitch` whose block is not the innermost open
    /// one (or none is open). `innermost` is the open block's kind, if any.
    Unopened {
        /// The kind of block the instruction belongs to.
        expected: BlockKind,
        /// The innermost open block's kind (`None`: no block is open).
        innermost: Option<BlockKind>,
    },
    /// A second `else` in one `if`.
    SecondElse,
    /// A second `default` in one `switch`.
    SecondDefault,
    /// `case` or `default` not directly inside a `switch`.
    CaseOutsideSwitch,
    /// `break` outside every `loop` and `switch`.
    BreakOutside,
    /// `continue` outside every `loop`.
    ContinueOutside,
    /// A label or phase while blocks are open: the outermost of them (all are closed
    /// now, so the walk goes on afresh).
    NotClosed(Block<T>),
}

/// The open blocks, innermost last.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blocks<T> {
    open: Vec<Block<T>>,
}

impl<T> Default for Blocks<T> {
    fn default() -> Self {
        Blocks { open: Vec::new() }
    }
}

impl<T> Blocks<T> {
    /// No block open.
    pub fn new() -> Self {
        Self::default()
    }

    /// How many blocks are open.
    pub fn depth(&self) -> usize {
        self.open.len()
    }

    /// The open blocks, outermost first.
    pub fn open(&self) -> &[Block<T>] {
        &self.open
    }

    /// The open block at `depth` (0 is the outermost), to update its data.
    pub fn get_mut(&mut self, depth: usize) -> Option<&mut Block<T>> {
        self.open.get_mut(depth)
    }

    /// The innermost open block.
    pub fn innermost(&self) -> Option<&Block<T>> {
        self.open.last()
    }

    /// The innermost open block, to update its data.
    pub fn innermost_mut(&mut self) -> Option<&mut Block<T>> {
        self.open.last_mut()
    }

    /// Takes one instruction of control-flow class `flow`. `data` gives the caller's
    /// data for a block it opens (called only then). On an error the structure is left
    /// as it was, except for [`BlockError::NotClosed`], after which no block is open.
    pub fn step(&mut self, flow: Flow, data: impl FnOnce() -> T) -> Result<Event<T>, BlockError<T>> {
        let opened = |kind| Block { kind, has_else: false, has_default: false, data: data() };
        match flow {
            Flow::If => self.open.push(opened(BlockKind::If)),
            Flow::Loop => self.open.push(opened(BlockKind::Loop)),
            Flow::Switch => self.open.push(opened(BlockKind::Switch)),
            Flow::Else => {
                let block = self.expect(BlockKind::If)?;
                if std::mem::replace(&mut block.has_else, true) {
                    return Err(BlockError::SecondElse);
                }
                return Ok(Event::Else);
            }
            Flow::EndIf | Flow::EndLoop | Flow::EndSwitch => {
                let kind = match flow {
                    Flow::EndIf => BlockKind::If,
                    Flow::EndLoop => BlockKind::Loop,
                    _ => BlockKind::Switch,
                };
                self.expect(kind)?;
                return Ok(self.open.pop().map_or(Event::None, Event::Closed));
            }
            Flow::Case | Flow::Default => {
                let Some(block) = self.open.last_mut().filter(|b| b.kind == BlockKind::Switch) else {
                    return Err(BlockError::CaseOutsideSwitch);
                };
                if flow == Flow::Default && std::mem::replace(&mut block.has_default, true) {
                    return Err(BlockError::SecondDefault);
                }
                return Ok(Event::Case);
            }
            Flow::Break => {
                let at = self.open.iter().rposition(|b| matches!(b.kind, BlockKind::Loop | BlockKind::Switch));
                return at.map(|block| Event::Break { block }).ok_or(BlockError::BreakOutside);
            }
            Flow::Continue => {
                let at = self.open.iter().rposition(|b| b.kind == BlockKind::Loop);
                return at.map(|block| Event::Continue { block }).ok_or(BlockError::ContinueOutside);
            }
            Flow::Label | Flow::Phase => {
                return match self.finish() {
                    Some(outermost) => Err(BlockError::NotClosed(outermost)),
                    None => Ok(Event::Fresh),
                };
            }
            _ => return Ok(Event::None),
        }
        Ok(Event::Opened)
    }

    /// At the end of the program: the blocks left open, outermost first; none is open
    /// afterwards.
    pub fn drain(&mut self) -> std::vec::Drain<'_, Block<T>> {
        self.open.drain(..)
    }

    /// Closes every block; the outermost that was open.
    pub fn finish(&mut self) -> Option<Block<T>> {
        let first = self.open.drain(..).next();
        first
    }

    fn expect(&mut self, expected: BlockKind) -> Result<&mut Block<T>, BlockError<T>> {
        let innermost = self.open.last().map(|b| b.kind);
        match self.open.last_mut() {
            Some(block) if block.kind == expected => Ok(block),
            _ => Err(BlockError::Unopened { expected, innermost }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walk(flows: &[Flow]) -> Result<usize, (usize, BlockError<usize>)> {
        let mut b = Blocks::new();
        for (i, &f) in flows.iter().enumerate() {
            b.step(f, || i).map_err(|e| (i, e))?;
        }
        Ok(b.depth())
    }

    #[test]
    fn nesting_closes_in_order() {
        use Flow::*;
        assert_eq!(walk(&[If, Loop, Switch, Case, Break, EndSwitch, Continue, EndLoop, Else, EndIf]), Ok(0));
        assert_eq!(walk(&[If, Loop]), Ok(2));
    }

    #[test]
    fn wrong_closers_and_misplaced_instructions_are_refused() {
        use Flow::*;
        let unopened = |expected, innermost| BlockError::Unopened { expected, innermost };
        assert_eq!(walk(&[If, EndLoop]), Err((1, unopened(BlockKind::Loop, Some(BlockKind::If)))));
        assert_eq!(walk(&[EndIf]), Err((0, unopened(BlockKind::If, Option::None))));
        assert_eq!(walk(&[If, Else, Else, EndIf]), Err((2, BlockError::SecondElse)));
        assert_eq!(walk(&[Loop, Else]), Err((1, unopened(BlockKind::If, Some(BlockKind::Loop)))));
        assert_eq!(walk(&[Switch, Default, Default]), Err((2, BlockError::SecondDefault)));
        assert_eq!(walk(&[Switch, Loop, Case]), Err((2, BlockError::CaseOutsideSwitch)));
        assert_eq!(walk(&[If, Break]), Err((1, BlockError::BreakOutside)));
        assert_eq!(walk(&[Switch, Continue]), Err((1, BlockError::ContinueOutside)));
    }

    #[test]
    fn break_and_continue_name_their_block() {
        let mut b = Blocks::new();
        for f in [Flow::Loop, Flow::Switch, Flow::If] {
            b.step(f, || ()).unwrap();
        }
        assert_eq!(b.step(Flow::Break, || ()), Ok(Event::Break { block: 1 }));
        assert_eq!(b.step(Flow::Continue, || ()), Ok(Event::Continue { block: 0 }));
    }

    #[test]
    fn a_label_needs_every_block_closed_and_starts_afresh() {
        let mut b = Blocks::new();
        b.step(Flow::If, || 7).unwrap();
        b.step(Flow::Loop, || 8).unwrap();
        match b.step(Flow::Label, || 9) {
            Err(BlockError::NotClosed(block)) => assert_eq!((block.kind, block.data), (BlockKind::If, 7)),
            other => panic!("{other:?}"),
        }
        assert_eq!(b.depth(), 0);
        assert_eq!(b.step(Flow::Phase, || 0), Ok(Event::Fresh));
    }
}
