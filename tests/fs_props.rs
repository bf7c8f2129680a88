//! Property tests of the filesystem: random operation sequences on a small path
//! alphabet must agree with the reference model in `shellbox::fs::model`, snapshots must
//! keep the state they were taken at, and forks must not see each other's writes.

use proptest::prelude::*;
use shellbox::fs::model::{self, Model, Op};
use shellbox::fs::{Clock, Fs};

const ROOT: &str = "/workspace";

/// Paths below /workspace of up to three components from a three-letter alphabet, so
/// operations collide often.
fn path() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(vec!["a", "b", "c"]), 1..=3)
        .prop_map(|parts| format!("{ROOT}/{}", parts.join("/")))
}

fn data() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(any::<u8>(), 0..8)
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (path(), data()).prop_map(|(p, d)| Op::Write(p, d)),
        2 => (path(), data()).prop_map(|(p, d)| Op::Append(p, d)),
        2 => path().prop_map(Op::Mkdir),
        2 => path().prop_map(Op::MkdirAll),
        1 => path().prop_map(Op::RemoveFile),
        1 => path().prop_map(Op::RemoveDir),
        1 => path().prop_map(Op::RemoveAll),
        2 => (path(), path()).prop_map(|(a, b)| Op::Rename(a, b)),
        2 => path().prop_map(Op::Read),
    ]
}

fn fresh() -> Fs {
    Fs::new(Clock::virtual_at(1_700_000_000))
}

/// Applies `ops` to both `fs` and `model`, failing at the first disagreement.
fn run(fs: &mut Fs, model: &mut Model, ops: &[Op]) -> Result<(), TestCaseError> {
    for (i, op) in ops.iter().enumerate() {
        let want = model.apply(op);
        let got = model::apply(fs, op);
        prop_assert_eq!(got, want, "op {} {:?}", i, op);
    }
    Ok(())
}

fn same_tree(fs: &Fs, model: &Model) -> Result<(), TestCaseError> {
    let tree = model::tree(fs, ROOT).map_err(TestCaseError::fail)?;
    prop_assert_eq!(&tree, model.nodes());
    model::check_invariants(fs).map_err(TestCaseError::fail)?;
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Every outcome matches the model; a snapshot taken at a random point still
    /// equals the model as it was then; usage counters and link counts stay exact.
    #[test]
    fn operations_match_the_model(
        ops in prop::collection::vec(op(), 0..48),
        at in any::<prop::sample::Index>(),
    ) {
        let snapshot_at = at.index(ops.len() + 1);
        model::check_ops(fresh(), ROOT, &ops, snapshot_at).map_err(TestCaseError::fail)?;
    }

    /// Two forks of one state, each then changed differently, see only their own
    /// changes, and the original sees neither.
    #[test]
    fn forks_are_isolated(
        shared in prop::collection::vec(op(), 0..24),
        left in prop::collection::vec(op(), 0..24),
        right in prop::collection::vec(op(), 0..24),
    ) {
        let mut fs = fresh();
        let mut model = Model::new(ROOT);
        run(&mut fs, &mut model, &shared)?;
        let (mut a, mut model_a) = (fs.clone(), model.clone());
        let (mut b, mut model_b) = (fs.snapshot(), model.clone());
        run(&mut a, &mut model_a, &left)?;
        run(&mut b, &mut model_b, &right)?;
        same_tree(&a, &model_a)?;
        same_tree(&b, &model_b)?;
        same_tree(&fs, &model)?;
    }
}

/// Sequences around renames of directories, kept as regressions.
#[test]
fn pinned_sequences() -> Result<(), String> {
    let p = |s: &str| format!("{ROOT}/{s}");
    let cases: Vec<Vec<Op>> = vec![
        vec![
            Op::MkdirAll(p("a/b")),
            Op::Rename(p("a"), p("a/b/c")),
            Op::Rename(p("a/b"), p("a")),
        ],
        vec![
            Op::Write(p("a"), vec![1]),
            Op::MkdirAll(p("a/b")),
            Op::Rename(p("a"), p("b")),
            Op::RemoveAll(p("b")),
        ],
        vec![
            Op::Mkdir(p("a")),
            Op::Mkdir(p("b")),
            Op::Write(p("b/c"), vec![]),
            Op::Rename(p("a"), p("b")),
            Op::Rename(p("b/c"), p("a/c")),
            Op::Rename(p("b"), p("a")),
        ],
    ];
    for ops in cases {
        for at in 0..=ops.len() {
            model::check_ops(fresh(), ROOT, &ops, at)?;
        }
    }
    Ok(())
}
