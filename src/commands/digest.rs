//! Message digests for the checksum utilities: MD5 (RFC 1321) and SHA-1 (FIPS 180-4)
//! written out here (small, and not worth two dependencies), SHA-2, BLAKE2b (RFC 7693,
//! any whole-byte length up to 512 bits) and SM3 from the RustCrypto crates, and the
//! POSIX `cksum` CRC.

use blake2::digest::block_api::{Buffer, UpdateCore, VariableOutputCore};
use sha2::Digest;

/// The algorithms the `*sum` utilities offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algo {
    Md5,
    Sha1,
    Sha224,
    Sha256,
    Sha384,
    Sha512,
    /// BLAKE2b, whose length (8 to 512 bits) is chosen per use.
    Blake2b,
    Sm3,
}

impl Algo {
    /// The name `--tag` output uses (`MD5 (f) = ...`).
    pub fn tag(self) -> &'static str {
        match self {
            Algo::Md5 => "MD5",
            Algo::Sha1 => "SHA1",
            Algo::Sha224 => "SHA224",
            Algo::Sha256 => "SHA256",
            Algo::Sha384 => "SHA384",
            Algo::Sha512 => "SHA512",
            Algo::Blake2b => "BLAKE2b",
            Algo::Sm3 => "SM3",
        }
    }
    /// The digest's length in bits (BLAKE2b's longest).
    pub fn bits(self) -> usize {
        match self {
            Algo::Md5 => 128,
            Algo::Sha1 => 160,
            Algo::Sha224 => 224,
            Algo::Sha256 | Algo::Sm3 => 256,
            Algo::Sha384 => 384,
            Algo::Sha512 | Algo::Blake2b => 512,
        }
    }
    /// The digest of `data` in lowercase hex, at its full length.
    pub fn hex(self, data: &[u8]) -> String {
        self.hex_bits(data, self.bits())
    }
    /// The digest of `data` in lowercase hex, `bits` long for BLAKE2b (a multiple of 8
    /// from 8 to 512; other lengths give the full 512) and the fixed length otherwise.
    pub fn hex_bits(self, data: &[u8], bits: usize) -> String {
        let bytes: Vec<u8> = match self {
            Algo::Md5 => md5(data).to_vec(),
            Algo::Sha1 => sha1(data).to_vec(),
            Algo::Sha224 => sha2::Sha224::digest(data).to_vec(),
            Algo::Sha256 => sha2::Sha256::digest(data).to_vec(),
            Algo::Sha384 => sha2::Sha384::digest(data).to_vec(),
            Algo::Sha512 => sha2::Sha512::digest(data).to_vec(),
            Algo::Blake2b => blake2b(data, bits / 8),
            Algo::Sm3 => sm3::Sm3::digest(data).to_vec(),
        };
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// BLAKE2b of `data` with an output of `len` bytes (1 to 64; others give 64). The
/// length is part of BLAKE2b's parameter block, so a shorter digest is not a prefix
/// of the longer one; the crate's fixed-size types choose it at compile time, its
/// core takes it at run time.
fn blake2b(data: &[u8], len: usize) -> Vec<u8> {
    let len = if (1..=64).contains(&len) { len } else { 64 };
    let Ok(mut core) = blake2::Blake2bVarCore::new(len) else {
        return Vec::new();
    };
    let mut buffer = Buffer::<blake2::Blake2bVarCore>::default();
    buffer.digest_blocks(data, |blocks| core.update_blocks(blocks));
    let mut out = blake2::digest::Output::<blake2::Blake2bVarCore>::default();
    core.finalize_variable_core(&mut buffer, &mut out);
    out.iter().take(len).copied().collect()
}

/// Pads a message the MD5/SHA-1 way: 0x80, zeros, then the bit length (little-endian
/// for MD5, big-endian for SHA-1).
fn padded(data: &[u8], big_endian: bool) -> Vec<u8> {
    let mut m = data.to_vec();
    let bits = (data.len() as u64).wrapping_mul(8);
    m.push(0x80);
    while m.len() % 64 != 56 {
        m.push(0);
    }
    m.extend_from_slice(&if big_endian {
        bits.to_be_bytes()
    } else {
        bits.to_le_bytes()
    });
    m
}

/// MD5 of `data`.
pub fn md5(data: &[u8]) -> [u8; 16] {
    const S: [u32; 64] = [
        7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9, 14, 20, 5, 9, 14, 20, 5,
        9, 14, 20, 5, 9, 14, 20, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 6, 10,
        15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
    ];
    let k: Vec<u32> = (0..64)
        .map(|i| ((i as f64 + 1.0).sin().abs() * 4_294_967_296.0) as u32)
        .collect();
    let mut h: [u32; 4] = [0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476];
    for block in padded(data, false).chunks_exact(64) {
        let mut w = [0u32; 16];
        for (i, word) in block.chunks_exact(4).enumerate() {
            w[i] = u32::from_le_bytes([word[0], word[1], word[2], word[3]]);
        }
        let [mut a, mut b, mut c, mut d] = h;
        for i in 0..64 {
            let (f, g) = match i / 16 {
                0 => ((b & c) | (!b & d), i),
                1 => ((d & b) | (!d & c), (5 * i + 1) % 16),
                2 => (b ^ c ^ d, (3 * i + 5) % 16),
                _ => (c ^ (b | !d), (7 * i) % 16),
            };
            let f = f.wrapping_add(a).wrapping_add(k[i]).wrapping_add(w[g]);
            a = d;
            d = c;
            c = b;
            b = b.wrapping_add(f.rotate_left(S[i]));
        }
        h[0] = h[0].wrapping_add(a);
        h[1] = h[1].wrapping_add(b);
        h[2] = h[2].wrapping_add(c);
        h[3] = h[3].wrapping_add(d);
    }
    let mut out = [0u8; 16];
    for (i, v) in h.iter().enumerate() {
        out[i * 4..i * 4 + 4].copy_from_slice(&v.to_le_bytes());
    }
    out
}

/// SHA-1 of `data`.
pub fn sha1(data: &[u8]) -> [u8; 20] {
    let mut h: [u32; 5] = [
        0x6745_2301,
        0xEFCD_AB89,
        0x98BA_DCFE,
        0x1032_5476,
        0xC3D2_E1F0,
    ];
    for block in padded(data, true).chunks_exact(64) {
        let mut w = [0u32; 80];
        for (i, word) in block.chunks_exact(4).enumerate() {
            w[i] = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
        }
        for i in 16..80 {
            w[i] = (w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]).rotate_left(1);
        }
        let [mut a, mut b, mut c, mut d, mut e] = h;
        for (i, wi) in w.iter().enumerate() {
            let (f, k) = match i / 20 {
                0 => ((b & c) | (!b & d), 0x5A82_7999),
                1 => (b ^ c ^ d, 0x6ED9_EBA1),
                2 => ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC),
                _ => (b ^ c ^ d, 0xCA62_C1D6u32),
            };
            let t = a
                .rotate_left(5)
                .wrapping_add(f)
                .wrapping_add(e)
                .wrapping_add(k)
                .wrapping_add(*wi);
            e = d;
            d = c;
            c = b.rotate_left(30);
            b = a;
            a = t;
        }
        for (hv, v) in h.iter_mut().zip([a, b, c, d, e]) {
            *hv = hv.wrapping_add(v);
        }
    }
    let mut out = [0u8; 20];
    for (i, v) in h.iter().enumerate() {
        out[i * 4..i * 4 + 4].copy_from_slice(&v.to_be_bytes());
    }
    out
}

/// The POSIX `cksum` CRC-32 (polynomial 0x04C11DB7, length appended, inverted).
pub fn posix_crc(data: &[u8]) -> u32 {
    let mut table = [0u32; 256];
    for (i, slot) in table.iter_mut().enumerate() {
        let mut c = (i as u32) << 24;
        for _ in 0..8 {
            c = if c & 0x8000_0000 != 0 {
                (c << 1) ^ 0x04C1_1DB7
            } else {
                c << 1
            };
        }
        *slot = c;
    }
    let mut crc = 0u32;
    let mut feed = |b: u8| {
        crc = (crc << 8) ^ table[((crc >> 24) ^ u32::from(b)) as usize & 0xff];
    };
    for &b in data {
        feed(b);
    }
    let mut len = data.len() as u64;
    while len > 0 {
        feed(len as u8);
        len >>= 8;
    }
    !crc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_digests() {
        assert_eq!(Algo::Md5.hex(b""), "d41d8cd98f00b204e9800998ecf8427e");
        assert_eq!(
            Algo::Md5.hex(b"hello\n"),
            "b1946ac92492d2347c6235b4d2611184"
        );
        assert_eq!(
            Algo::Md5.hex(&[b'a'; 1000]),
            "cabe45dcc9ae5b66ba86600cca6b8ba8"
        );
        assert_eq!(
            Algo::Sha1.hex(b"x"),
            "11f6ad8ec52a2984abaafd7c3b516503785c2072"
        );
        assert_eq!(
            Algo::Sha1.hex(b""),
            "da39a3ee5e6b4b0d3255bfef95601890afd80709"
        );
        assert_eq!(
            Algo::Sha256.hex(b"hello\n"),
            "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03"
        );
        assert_eq!(
            Algo::Blake2b.hex(b"hello\n"),
            "f60ce482e5cc1229f39d71313171a8d9f4ca3a87d066bf4b205effb528192a75\
             f14f3271e2c1a90e1de53f275b4d4793eef2f5e31ea90d2ce29d2e481c36435f"
        );
        assert_eq!(
            Algo::Blake2b.hex_bits(b"hello\n", 128),
            "ea41b4de6c03f13a95758b28dd75693e"
        );
        assert_eq!(Algo::Blake2b.hex_bits(b"hello\n", 8), "27");
        assert_eq!(
            Algo::Sm3.hex(b"hello\n"),
            "f7a87a195b0cc0052b9d598482212ceb07e4ea60e8d139a5dfeff36c24abf2b3"
        );
        assert_eq!(posix_crc(b"hello\n"), 3_015_617_425);
        assert_eq!(posix_crc(b""), 4_294_967_295);
    }
}
