//! The restricted shell (bash manual, "The Restricted Shell"): `set -r`, `bash -r`
//! and `bash --restricted`. The rules live where each action happens (`cd`, command
//! lookup, `.`, `hash -p`, `history`, `enable`, `command -p`, `exec`, redirections);
//! this file holds what they share: turning the mode on, the variables it freezes and
//! the name an output redirection is refused under.

use super::Interp;
use crate::expand::{Attrs, Expander};
use crate::syntax::{RedirFd, Redirect, Word, WordPart};

/// The variables a restricted shell may not set or unset.
const FROZEN: [&str; 5] = ["SHELL", "PATH", "ENV", "BASH_ENV", "HISTFILE"];

impl Interp {
    /// `set -r`. bash freezes the variables only once it is reading commands: a
    /// `-c` string (and what it sources) keeps them assignable.
    pub(crate) fn set_restricted(&mut self) {
        self.restricted = true;
        if !self.command_string_mode {
            self.freeze_restricted_vars();
        }
    }

    /// Makes `SHELL`, `PATH`, `ENV`, `BASH_ENV` and `HISTFILE` read-only (declared,
    /// without a value, when unset), as a shell started restricted has them.
    pub(crate) fn freeze_restricted_vars(&mut self) {
        for name in FROZEN {
            self.vars
                .entry(name, false)
                .attrs
                .set(Attrs::READONLY, true);
        }
    }

    /// Reports output redirection `r` (to `target`) refused in restricted mode. bash
    /// names a `{var}` redirection by its variable, any other by the target expanded
    /// again, its command substitutions left as written rather than run twice (other
    /// expansions do run again: `$((i++))` counts twice).
    pub(crate) fn restricted_redirect(&mut self, r: &Redirect, target: &Word) {
        if let Some(RedirFd::Var(name)) = &r.fd {
            self.error(&format!("{name}: restricted: cannot redirect output"));
            return;
        }
        let shown = Word {
            parts: target.parts.iter().map(substitutions_as_text).collect(),
        };
        let name = match Expander::new(self).redirect_target(&shown) {
            Ok(Ok(t)) => t,
            _ => crate::syntax::printer::word_to_string(target),
        };
        self.error(&format!("{name}: restricted: cannot redirect output"));
    }

    /// The error for a command name with a slash in restricted mode.
    pub(crate) fn restricted_command(&mut self, name: &str) {
        self.error(&format!(
            "{name}: restricted: cannot specify `/' in command names"
        ));
    }
}

/// `part` with each command substitution replaced by its text as bash prints it.
fn substitutions_as_text(part: &WordPart) -> WordPart {
    match part {
        WordPart::CmdSub(..) | WordPart::BadBackquote(_) => {
            WordPart::Quoted(crate::syntax::printer::word_to_string(&Word {
                parts: vec![part.clone()],
            }))
        }
        WordPart::DQuoted(inner) => {
            WordPart::DQuoted(inner.iter().map(substitutions_as_text).collect())
        }
        other => other.clone(),
    }
}
