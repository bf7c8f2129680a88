//! Links the addon the way Node loads it (napi symbols resolved at load time).

fn main() {
    napi_build::setup();
}
