//! Property: `patch` undoes what our `diff` finds. For random pairs of files, `diff -u`
//! (and `diff -c`, and the normal format) then `patch` turns the first into the
//! second, and `patch -R` turns it back.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use proptest::prelude::*;

fn file() -> impl Strategy<Value = Vec<u8>> {
    (
        prop::collection::vec(
            prop::sample::select(vec!["a", "b", "c", "d", "", "e f"]),
            0..40,
        ),
        any::<bool>(),
    )
        .prop_map(|(lines, last_newline)| {
            let mut s = lines.join("\n");
            if last_newline && !lines.is_empty() {
                s.push('\n');
            }
            s.into_bytes()
        })
}

fn round_trip(a: Vec<u8>, b: Vec<u8>, format: &str) -> Result<(), TestCaseError> {
    let mut sh = shellbox::Shell::builder()
        .file("a", a.clone())
        .file("b", b.clone())
        .file("orig", a)
        .build();
    let script = format!(
        "diff {format} a b > p; patch -s a < p || exit 9; cmp a b || exit 8; \
         patch -s -R a < p || exit 7; cmp a orig || exit 6"
    );
    let out = sh.exec(&script);
    prop_assert_eq!(
        out.exit_code,
        0,
        "stdout {:?} stderr {:?}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = b;
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn unified_diff_then_patch_restores(a in file(), b in file()) {
        round_trip(a, b, "-u")?;
    }

    #[test]
    fn context_diff_then_patch_restores(a in file(), b in file()) {
        round_trip(a, b, "-c")?;
    }

    #[test]
    fn normal_diff_then_patch_restores(a in file(), b in file()) {
        round_trip(a, b, "")?;
    }

    #[test]
    fn zero_context_diff_then_patch_restores(a in file(), b in file()) {
        round_trip(a, b, "-U0")?;
    }
}
