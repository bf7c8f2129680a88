//! The bc machine: a value stack, variables and arrays with per-call instances (bc's
//! dynamic scoping of parameters and `auto`s), function frames, and output broken
//! into 70-column lines with `\` as GNU bc does. Runtime errors stop the current item
//! with GNU's message and `adr=` offset.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::io;
use std::rc::Rc;

use super::code::{FuncDef, IBASE, LAST, OBASE, Op, Param, SCALE, Symbols, call_head_size};
use super::mathlib;
use super::num::{Num, RaiseError, constant, format, raise};

const BC_DIM_MAX: i64 = 16_777_215;
const BC_SCALE_MAX: i64 = 2_147_483_647;
const BC_BASE_MAX: i64 = 2_147_483_647;
const MAX_CALL_DEPTH: usize = 50_000;

type Array = Rc<RefCell<BTreeMap<i64, Num>>>;

/// A library function implemented natively (`-l`).
#[derive(Clone, Copy, Debug)]
pub enum Native {
    E,
    L,
    S,
    C,
    A,
    J,
}

#[derive(Clone, Debug, Default)]
struct Func {
    defined: bool,
    native: Option<Native>,
    params: Vec<Param>,
    autos: Vec<Param>,
    code: Rc<Vec<Op>>,
    /// GNU byte offset of each instruction.
    addrs: Rc<Vec<usize>>,
    labels: Rc<HashMap<usize, usize>>,
}

fn layout(code: &[Op]) -> (Vec<usize>, HashMap<usize, usize>) {
    let mut addrs = Vec::with_capacity(code.len());
    let mut labels = HashMap::new();
    let mut a = 0;
    for (i, op) in code.iter().enumerate() {
        addrs.push(a);
        a += op.gnu_size();
        if let Op::Label(l) = op {
            labels.insert(*l, i);
        }
    }
    (addrs, labels)
}

/// Where execution returns to after a call.
struct Frame {
    func: usize,
    pc: usize,
    ibase: u32,
}

/// How a run ended.
pub enum Outcome {
    Done,
    Halt,
}

pub struct Vm {
    pub scale: i64,
    pub ibase: u32,
    pub obase: i64,
    vars: Vec<Vec<Num>>,
    arrays: Vec<Vec<Array>>,
    funcs: Vec<Func>,
    pub out: Vec<u8>,
    pub err: Vec<u8>,
    out_col: usize,
    line_size: usize,
    seed: u64,
}

/// A runtime error: the message (without the `Runtime error` prefix).
struct RtError(String);

impl Vm {
    pub fn new(line_size: usize) -> Vm {
        Vm {
            scale: 0,
            ibase: 10,
            obase: 10,
            vars: Vec::new(),
            arrays: Vec::new(),
            funcs: Vec::new(),
            out: Vec::new(),
            err: Vec::new(),
            out_col: 0,
            line_size,
            seed: 0x2545_F491_4F6C_DD1D,
        }
    }

    pub fn define_native(&mut self, index: usize, native: Native, arity: usize) {
        self.ensure_func(index);
        if let Some(f) = self.funcs.get_mut(index) {
            f.defined = true;
            f.native = Some(native);
            f.params = (0..arity)
                .map(|_| Param {
                    index: 0,
                    array: false,
                    by_ref: false,
                })
                .collect();
        }
    }

    pub fn define(&mut self, def: FuncDef) {
        self.ensure_func(def.index);
        let (addrs, labels) = layout(&def.body);
        if let Some(f) = self.funcs.get_mut(def.index) {
            *f = Func {
                defined: true,
                native: None,
                params: def.params,
                autos: def.autos,
                code: Rc::new(def.body),
                addrs: Rc::new(addrs),
                labels: Rc::new(labels),
            };
        }
    }

    fn ensure_func(&mut self, index: usize) {
        if self.funcs.len() <= index {
            self.funcs.resize_with(index + 1, Func::default);
        }
    }

    // ---- output -------------------------------------------------------------

    fn out_char(&mut self, c: u8) {
        if c == b'\n' {
            self.out_col = 0;
            self.out.push(b'\n');
            return;
        }
        self.out_col += 1;
        if self.line_size != 0 && self.out_col == self.line_size - 1 {
            self.out.extend_from_slice(b"\\\n");
            self.out_col = 1;
        }
        self.out.push(c);
    }

    fn out_num(&mut self, n: &Num) {
        let obase = u64::try_from(self.obase).unwrap_or(10);
        for b in format(n, obase).into_bytes() {
            self.out_char(b);
        }
    }

    fn out_str(&mut self, s: &[u8], escapes: bool) {
        let mut it = s.iter().copied();
        while let Some(c) = it.next() {
            if escapes && c == b'\\' {
                let Some(e) = it.next() else { break };
                let r = match e {
                    b'a' => 7,
                    b'b' => 8,
                    b'f' => 12,
                    b'n' => b'\n',
                    b'q' => b'"',
                    b'r' => b'\r',
                    b't' => b'\t',
                    b'\\' => b'\\',
                    // GNU drops an unknown escape altogether.
                    _ => continue,
                };
                self.out_char(r);
            } else {
                self.out_char(c);
            }
        }
    }

    // ---- variables ------------------------------------------------------------

    fn var_slot(&mut self, i: usize) -> &mut Vec<Num> {
        if self.vars.len() <= i {
            self.vars.resize_with(i + 1, Vec::new);
        }
        // In range: resized just above.
        let slot = &mut self.vars[i];
        if slot.is_empty() {
            slot.push(Num::zero());
        }
        slot
    }

    fn load_var(&mut self, i: usize) -> Num {
        match i {
            IBASE => Num::from_i64(i64::from(self.ibase)),
            OBASE => Num::from_i64(self.obase),
            SCALE => Num::from_i64(self.scale),
            3 => Num::zero(),
            _ => self.var_slot(i).last().cloned().unwrap_or_default(),
        }
    }

    /// Assigns a variable; the special ones are range-checked with GNU's warnings.
    fn store_var(&mut self, i: usize, v: &Num, warn: &mut Vec<String>) {
        let temp = v.to_long();
        match i {
            IBASE => {
                if temp < 2 {
                    warn.push("ibase too small, set to 2".to_owned());
                    self.ibase = 2;
                } else if temp > 16 {
                    warn.push("ibase too large, set to 16".to_owned());
                    self.ibase = 16;
                } else {
                    self.ibase = temp as u32;
                }
            }
            OBASE => {
                if temp < 2 {
                    warn.push("obase too small, set to 2".to_owned());
                    self.obase = 2;
                } else if temp > BC_BASE_MAX {
                    warn.push(format!("obase too large, set to {BC_BASE_MAX}"));
                    self.obase = BC_BASE_MAX;
                } else {
                    self.obase = temp;
                }
            }
            SCALE => {
                if temp < 0 {
                    warn.push("negative scale, set to 0".to_owned());
                    self.scale = 0;
                } else if temp > BC_SCALE_MAX {
                    warn.push(format!("scale too large, set to {BC_SCALE_MAX}"));
                    self.scale = BC_SCALE_MAX;
                } else {
                    self.scale = temp;
                }
            }
            3 => {}
            _ => {
                if let Some(top) = self.var_slot(i).last_mut() {
                    *top = v.clone();
                }
            }
        }
    }

    fn array(&mut self, i: usize) -> Array {
        if self.arrays.len() <= i {
            self.arrays.resize_with(i + 1, Vec::new);
        }
        match self.arrays.get_mut(i) {
            Some(stack) => {
                if stack.is_empty() {
                    stack.push(Rc::new(RefCell::new(BTreeMap::new())));
                }
                stack.last().cloned().unwrap_or_default()
            }
            None => Rc::default(),
        }
    }

    fn subscript(&self, n: &Num, syms: &Symbols, a: usize) -> Result<i64, RtError> {
        let idx = n.to_long();
        if !(0..=BC_DIM_MAX).contains(&idx) || (idx == 0 && !n.int_is_zero()) {
            let name = syms.arrays.get(a).map_or("", String::as_str);
            return Err(RtError(format!("Array {name} subscript out of bounds.")));
        }
        Ok(idx)
    }

    fn push_instance(&mut self, p: &Param) {
        if p.array {
            self.array(p.index);
            if let Some(stack) = self.arrays.get_mut(p.index) {
                stack.push(Rc::new(RefCell::new(BTreeMap::new())));
            }
        } else {
            self.var_slot(p.index).push(Num::zero());
        }
    }

    fn pop_instance(&mut self, p: &Param) {
        if p.array {
            if let Some(stack) = self.arrays.get_mut(p.index) {
                stack.pop();
            }
        } else if let Some(stack) = self.vars.get_mut(p.index) {
            stack.pop();
        }
    }

    fn pop_frame_vars(&mut self, func: usize) {
        let (params, autos) = match self.funcs.get(func) {
            Some(f) => (f.params.clone(), f.autos.clone()),
            None => return,
        };
        for p in autos.iter().chain(params.iter()) {
            self.pop_instance(p);
        }
    }

    // ---- execution ------------------------------------------------------------

    /// Runs one item of main-program code.
    pub fn run(
        &mut self,
        main: Vec<Op>,
        syms: &Symbols,
        read_byte: &mut dyn FnMut() -> Option<u8>,
        check: &mut dyn FnMut() -> io::Result<()>,
    ) -> io::Result<Outcome> {
        let (addrs, labels) = layout(&main);
        self.ensure_func(0);
        if let Some(f) = self.funcs.get_mut(0) {
            f.code = Rc::new(main);
            f.addrs = Rc::new(addrs);
            f.labels = Rc::new(labels);
        }
        let mut stack: Vec<Num> = Vec::new();
        let mut frames: Vec<Frame> = Vec::new();
        let mut func = 0usize;
        let mut pc = 0usize;
        let mut ibase_at_call = self.ibase;
        let mut steps = 0u32;
        let mut warnings: Vec<String> = Vec::new();
        let outcome = loop {
            steps = steps.wrapping_add(1);
            if steps.is_multiple_of(1024) {
                check()?;
            }
            let Some(f) = self.funcs.get(func) else {
                break Outcome::Done;
            };
            let code = Rc::clone(&f.code);
            let addrs = Rc::clone(&f.addrs);
            let labels = Rc::clone(&f.labels);
            let Some(op) = code.get(pc) else {
                break Outcome::Done;
            };
            let here = addrs.get(pc).copied().unwrap_or(0);
            let mut adr = here + op.gnu_size();
            pc += 1;
            let result: Result<(), RtError> = (|| {
                match op {
                    Op::Const(d) => {
                        let base = if func == 0 { self.ibase } else { ibase_at_call };
                        stack.push(constant(d, base));
                    }
                    Op::Zero => stack.push(Num::zero()),
                    Op::One => stack.push(Num::one()),
                    Op::Load(i) => {
                        let v = self.load_var(*i);
                        stack.push(v);
                    }
                    Op::Store(i) => {
                        let v = stack.last().cloned().unwrap_or_default();
                        self.store_var(*i, &v, &mut warnings);
                    }
                    Op::Incr(i) | Op::Decr(i) => {
                        let v = self.load_var(*i);
                        let d = if matches!(op, Op::Incr(_)) {
                            v.add(&Num::one(), 0)
                        } else {
                            v.sub(&Num::one(), 0)
                        };
                        self.store_var(*i, &d, &mut warnings);
                    }
                    Op::LoadArr(a) => {
                        let s = stack.pop().unwrap_or_default();
                        let idx = self.subscript(&s, syms, *a)?;
                        let arr = self.array(*a);
                        let v = arr.borrow().get(&idx).cloned().unwrap_or_default();
                        stack.push(v);
                    }
                    Op::StoreArr(a) => {
                        let v = stack.pop().unwrap_or_default();
                        let s = stack.pop().unwrap_or_default();
                        let idx = self.subscript(&s, syms, *a)?;
                        self.array(*a).borrow_mut().insert(idx, v.clone());
                        stack.push(v);
                    }
                    Op::IncrArr(a) | Op::DecrArr(a) => {
                        let s = stack.pop().unwrap_or_default();
                        let idx = self.subscript(&s, syms, *a)?;
                        let arr = self.array(*a);
                        let mut map = arr.borrow_mut();
                        let cur = map.get(&idx).cloned().unwrap_or_default();
                        let new = if matches!(op, Op::IncrArr(_)) {
                            cur.add(&Num::one(), 0)
                        } else {
                            cur.sub(&Num::one(), 0)
                        };
                        map.insert(idx, new);
                    }
                    Op::Dup => {
                        let v = stack.last().cloned().unwrap_or_default();
                        stack.push(v);
                    }
                    Op::Swap => {
                        let n = stack.len();
                        if n >= 2 {
                            stack.swap(n - 1, n - 2);
                        }
                    }
                    Op::Pop => {
                        stack.pop();
                    }
                    Op::Write | Op::Print => {
                        let v = stack.pop().unwrap_or_default();
                        self.out_num(&v);
                        if matches!(op, Op::Write) {
                            self.out_char(b'\n');
                        }
                        self.store_var(LAST, &v, &mut warnings);
                    }
                    Op::Str(s) => {
                        let s = s.clone();
                        self.out_str(&s, false);
                    }
                    Op::PrintStr(s) => {
                        let s = s.clone();
                        self.out_str(&s, true);
                    }
                    Op::Bin(c) => {
                        let b = stack.pop().unwrap_or_default();
                        let a = stack.pop().unwrap_or_default();
                        let scale = usize::try_from(self.scale).unwrap_or(0);
                        let r = match c {
                            b'+' => a.add(&b, 0),
                            b'-' => a.sub(&b, 0),
                            b'*' => a.mul(&b, scale),
                            b'/' => a
                                .div(&b, scale)
                                .ok_or_else(|| RtError("Divide by zero".to_owned()))?,
                            b'%' => a
                                .modulo(&b, scale)
                                .ok_or_else(|| RtError("Modulo by zero".to_owned()))?,
                            b'^' => {
                                if b.scale != 0 {
                                    warnings.push("non-zero scale in exponent".to_owned());
                                }
                                let r = match raise(&a, &b, scale) {
                                    Ok((r, _)) => r,
                                    Err(RaiseError::TooLarge) => {
                                        return Err(RtError(
                                            "exponent too large in raise".to_owned(),
                                        ));
                                    }
                                };
                                if a.is_zero() && b.is_neg() {
                                    return Err(RtError("divide by zero".to_owned()));
                                }
                                r
                            }
                            cmp => {
                                let o = a.cmp(&b);
                                let t = match cmp {
                                    b'=' => o.is_eq(),
                                    b'#' => o.is_ne(),
                                    b'<' => o.is_lt(),
                                    b'{' => o.is_le(),
                                    b'>' => o.is_gt(),
                                    _ => o.is_ge(),
                                };
                                Num::from_i64(i64::from(t))
                            }
                        };
                        stack.push(r);
                    }
                    Op::Not => {
                        let v = stack.pop().unwrap_or_default();
                        stack.push(Num::from_i64(i64::from(v.is_zero())));
                    }
                    Op::Neg => {
                        let v = stack.pop().unwrap_or_default();
                        stack.push(Num::zero().sub(&v, 0));
                    }
                    Op::Jump(l) => {
                        pc = labels.get(l).copied().unwrap_or(pc);
                    }
                    Op::BranchZero(l) | Op::BranchNonZero(l) => {
                        let v = stack.pop().unwrap_or_default();
                        if v.is_zero() == matches!(op, Op::BranchZero(_)) {
                            pc = labels.get(l).copied().unwrap_or(pc);
                        }
                    }
                    Op::Label(_) => {}
                    Op::ArrayArg(a) => stack.push(Num::from_i64(*a as i64)),
                    Op::Special(c) => {
                        let scale = usize::try_from(self.scale).unwrap_or(0);
                        match c {
                            b'L' => {
                                let v = stack.pop().unwrap_or_default();
                                stack.push(Num::from_i64(v.length() as i64));
                            }
                            b'S' => {
                                let v = stack.pop().unwrap_or_default();
                                stack.push(Num::from_i64(v.scale as i64));
                            }
                            b'R' => {
                                let v = stack.pop().unwrap_or_default();
                                let r = v.sqrt(scale).ok_or_else(|| {
                                    RtError("Square root of a negative number".to_owned())
                                })?;
                                stack.push(r);
                            }
                            b'I' => stack.push(read_number(read_byte, self.ibase)),
                            _ => {
                                self.seed ^= self.seed << 13;
                                self.seed ^= self.seed >> 7;
                                self.seed ^= self.seed << 17;
                                stack.push(Num::from_i64((self.seed >> 33) as i64));
                            }
                        }
                    }
                    Op::Call(f, args) => {
                        adr = here + call_head_size(*f);
                        let target = self.funcs.get(*f).cloned().unwrap_or_default();
                        if !target.defined {
                            let name = syms.funcs.get(*f).map_or("", String::as_str);
                            return Err(RtError(format!("Function {name} not defined.")));
                        }
                        // Arguments are matched last to first, as GNU does.
                        let rev_params: Vec<&Param> = target.params.iter().rev().collect();
                        for (k, &is_array) in args.iter().rev().enumerate() {
                            let Some(p) = rev_params.get(k) else {
                                adr += k + 1;
                                return Err(RtError("Parameter number mismatch".to_owned()));
                            };
                            if is_array != p.array {
                                adr += k + 1;
                                return Err(RtError(if p.array {
                                    let n = syms.arrays.get(p.index).map_or("", String::as_str);
                                    format!("Parameter type mismatch parameter {n}.")
                                } else {
                                    let n = syms.vars.get(p.index).map_or("", String::as_str);
                                    format!("Parameter type mismatch, parameter {n}.")
                                }));
                            }
                        }
                        if rev_params.len() > args.len() {
                            adr += args.len() + 1;
                            return Err(RtError("Parameter number mismatch".to_owned()));
                        }
                        let mut values: Vec<Num> = Vec::new();
                        for _ in 0..args.len() {
                            values.push(stack.pop().unwrap_or_default());
                        }
                        values.reverse();
                        if let Some(native) = target.native {
                            let r = mathlib::call(native, &values, self)
                                .ok_or_else(|| RtError("Divide by zero".to_owned()))?;
                            stack.push(r);
                            return Ok(());
                        }
                        if frames.len() >= MAX_CALL_DEPTH {
                            return Err(RtError("function calls nested too deeply".to_owned()));
                        }
                        for (p, v) in target.params.iter().zip(values) {
                            if p.array {
                                let src = usize::try_from(v.to_long()).unwrap_or(0);
                                let src_arr = self.array(src);
                                self.push_instance(p);
                                let inst = if p.by_ref {
                                    src_arr
                                } else {
                                    Rc::new(RefCell::new(src_arr.borrow().clone()))
                                };
                                if let Some(top) =
                                    self.arrays.get_mut(p.index).and_then(|s| s.last_mut())
                                {
                                    *top = inst;
                                }
                            } else {
                                self.push_instance(p);
                                if let Some(top) = self.var_slot(p.index).last_mut() {
                                    *top = v;
                                }
                            }
                        }
                        for a in &target.autos {
                            self.push_instance(a);
                        }
                        frames.push(Frame {
                            func,
                            pc,
                            ibase: ibase_at_call,
                        });
                        ibase_at_call = self.ibase;
                        func = *f;
                        pc = 0;
                    }
                    Op::Return => {
                        self.pop_frame_vars(func);
                        if let Some(fr) = frames.pop() {
                            func = fr.func;
                            pc = fr.pc;
                            ibase_at_call = fr.ibase;
                        }
                    }
                    Op::Halt => return Err(RtError(String::new())),
                }
                Ok(())
            })();
            let fname = syms.funcs.get(func).map_or("(main)", String::as_str);
            for w in warnings.drain(..) {
                self.err.extend_from_slice(
                    format!("Runtime warning (func={fname}, adr={adr}): {w}\n").as_bytes(),
                );
            }
            if let Err(RtError(msg)) = result {
                if msg.is_empty() {
                    break Outcome::Halt;
                }
                self.err.extend_from_slice(
                    format!("Runtime error (func={fname}, adr={adr}): {msg}\n").as_bytes(),
                );
                break Outcome::Done;
            }
        };
        // Unwind whatever calls were active.
        while let Some(fr) = frames.pop() {
            self.pop_frame_vars(func);
            func = fr.func;
        }
        Ok(outcome)
    }
}

/// `read()`: a number from the input in base `ibase` (GNU's `input_char` mapping).
fn read_number(read_byte: &mut dyn FnMut() -> Option<u8>, ibase: u32) -> Num {
    let mut text: Vec<Option<u8>> = Vec::new();
    let mut neg = false;
    let mut started = false;
    while let Some(b) = read_byte() {
        match b {
            b' ' | b'\t' | b'\r' if !started => {}
            b'\n' if !started => {}
            b'-' if !started => {
                neg = true;
                started = true;
            }
            b'+' if !started => started = true,
            b'0'..=b'9' => {
                started = true;
                text.push(Some(b - b'0'));
            }
            b'A'..=b'F' => {
                started = true;
                text.push(Some(b - b'A' + 10));
            }
            b'a'..=b'f' => {
                started = true;
                text.push(Some(b - b'a' + 10));
            }
            b'.' => {
                started = true;
                text.push(None);
            }
            _ => break,
        }
    }
    let n = constant(&text, ibase);
    if neg { n.neg() } else { n }
}
