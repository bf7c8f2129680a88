//! Syntax: the AST, the parser and the printer. Knows nothing of the filesystem or the
//! interpreter. `parse(src) -> Result<Script, ParseError>`.

pub mod arith;
pub mod ast;
pub mod parser;
pub mod printer;

pub use ast::*;
pub use parser::{
    ParseError, ParseErrorKind, ParseOptions, ParseWarning, ParseWarningKind, Parser,
    is_binary_test_op, is_name, is_unary_test_op, parse, parse_arith_text, parse_subscript_word,
    parse_with,
};
pub use printer::arith_to_string as printer_arith;
