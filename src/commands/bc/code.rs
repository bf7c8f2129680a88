//! The instructions a bc program compiles to. They mirror GNU bc's byte code one for
//! one, and each knows how many bytes GNU's encoding of it takes, so runtime messages
//! can name the same `adr=` GNU prints.

use super::num::ConstDigits;

#[derive(Clone, Debug)]
pub enum Op {
    /// `K...:` a constant, converted at run time in the current input base.
    Const(ConstDigits),
    Zero,
    One,
    Load(usize),
    Store(usize),
    LoadArr(usize),
    StoreArr(usize),
    Incr(usize),
    Decr(usize),
    IncrArr(usize),
    DecrArr(usize),
    Dup,
    Swap,
    Pop,
    /// `W`: print with a newline (and remember as `last`).
    Write,
    /// `P`: print without a newline.
    Print,
    /// `w`: a string statement, printed as is.
    Str(Vec<u8>),
    /// `O`: a string in `print`, with backslash escapes.
    PrintStr(Vec<u8>),
    /// `+ - * / % ^` and the comparisons `= # < { > }`.
    Bin(u8),
    Not,
    Neg,
    Jump(usize),
    BranchZero(usize),
    BranchNonZero(usize),
    Label(usize),
    /// A call: function, and for each argument whether it is an array.
    Call(usize, Vec<bool>),
    /// An array passed as an argument (GNU encodes its number as a constant).
    ArrayArg(usize),
    /// `cL cS cR cI cX`: length, scale, sqrt, read, random.
    Special(u8),
    Return,
    Halt,
}

/// Bytes GNU uses for a variable, array or function number.
fn index_bytes(i: usize) -> usize {
    if i < 128 { 1 } else { 2 }
}

impl Op {
    /// The size of GNU's encoding of this instruction.
    pub fn gnu_size(&self) -> usize {
        match self {
            Op::Const(d) => 2 + d.len(),
            Op::Load(i)
            | Op::Store(i)
            | Op::LoadArr(i)
            | Op::StoreArr(i)
            | Op::Incr(i)
            | Op::Decr(i)
            | Op::IncrArr(i)
            | Op::DecrArr(i) => 1 + index_bytes(*i),
            Op::Str(s) | Op::PrintStr(s) => 2 + s.len(),
            Op::Jump(_) | Op::BranchZero(_) | Op::BranchNonZero(_) => 3,
            Op::Label(_) => 0,
            Op::Call(f, params) => 2 + index_bytes(*f) + params.len(),
            Op::ArrayArg(i) => 2 + i.to_string().len(),
            Op::Special(_) => 2,
            _ => 1,
        }
    }
}

/// Bytes of a call instruction up to and including its function number.
pub fn call_head_size(f: usize) -> usize {
    1 + index_bytes(f)
}

/// A parameter or auto variable: its number and whether it is an array (passed by
/// reference with `*a[]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param {
    pub index: usize,
    pub array: bool,
    pub by_ref: bool,
}

/// A compiled function body.
#[derive(Clone, Debug, Default)]
pub struct FuncDef {
    pub index: usize,
    pub params: Vec<Param>,
    pub autos: Vec<Param>,
    pub body: Vec<Op>,
}

/// The names behind the numbers (variables from 5: 0-4 are ibase, obase, scale,
/// history and last).
#[derive(Debug, Default)]
pub struct Symbols {
    pub vars: Vec<String>,
    pub arrays: Vec<String>,
    pub funcs: Vec<String>,
    /// Functions known to be void (for the parser's checks).
    pub void_funcs: Vec<bool>,
}

pub const FIRST_VAR: usize = 5;
pub const IBASE: usize = 0;
pub const OBASE: usize = 1;
pub const SCALE: usize = 2;
pub const LAST: usize = 4;

impl Symbols {
    pub fn new() -> Symbols {
        Symbols {
            vars: ["ibase", "obase", "scale", "history", "last"]
                .iter()
                .map(|s| (*s).to_owned())
                .collect(),
            arrays: vec![String::new()],
            funcs: vec!["(main)".to_owned()],
            void_funcs: vec![false],
        }
    }

    fn lookup(list: &mut Vec<String>, name: &str) -> usize {
        match list.iter().position(|n| n == name) {
            Some(i) => i,
            None => {
                list.push(name.to_owned());
                list.len() - 1
            }
        }
    }

    pub fn var(&mut self, name: &str) -> usize {
        // Special names are keywords, so user names never collide with them.
        match self.vars.iter().skip(FIRST_VAR).position(|n| n == name) {
            Some(i) => i + FIRST_VAR,
            None => {
                self.vars.push(name.to_owned());
                self.vars.len() - 1
            }
        }
    }

    pub fn array(&mut self, name: &str) -> usize {
        Symbols::lookup(&mut self.arrays, name)
    }

    pub fn func(&mut self, name: &str) -> usize {
        let i = Symbols::lookup(&mut self.funcs, name);
        if self.void_funcs.len() <= i {
            self.void_funcs.resize(i + 1, false);
        }
        i
    }
}
