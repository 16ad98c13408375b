//! The bytes of stdin, as hooks get them: on the heap while small, in an
//! anonymous mapping with huge pages asked for once they are large
//! ([`MAPPED_FROM`]).
//!
//! Every 4 KiB page a buffer touches for the first time is a page fault,
//! and a fault is one of the dearest things a short-lived process does
//! (several microseconds under a hypervisor): a 10 MB event read into a
//! `Vec` is some 2,700 of them. A mapping advised `MADV_HUGEPAGE` is
//! backed by 2 MiB pages where the kernel allows it (transparent huge
//! pages set to `madvise` or `always`), a handful of faults for the same
//! bytes. Where the kernel has no huge pages (or the system has no such
//! advice: macOS), the mapping is an ordinary buffer; where no mapping can
//! be made, the heap is used.

use std::ops::Deref;

use memmap2::{MmapMut, MmapOptions};

/// From this many bytes on, a buffer is a mapping: past it, the heap
/// would take more faults (64 for each 256 KiB) than a huge page does
/// (one), and a mapping is at most one huge page larger than its bytes.
pub const MAPPED_FROM: usize = 256 * 1024;

/// The size of a huge page on x86_64 and aarch64 with 4 KiB pages; a
/// mapping is a whole number of them, so that the kernel can place it on
/// huge-page boundaries.
const HUGE_PAGE: usize = 2 << 20;

/// Room for the first reads into the heap; once it is full, as much again
/// as was read so far, at most [`MAX_READ_CHUNK`] (what a pipe holds) more
/// at a time: heap room is zeroed before a read fills it, and zeroing much
/// more than the next reads bring would touch pages for nothing.
const READ_CHUNK: usize = 8 * 1024;
const MAX_READ_CHUNK: usize = 64 * 1024;

/// Bytes read once and then only read (shared behind an `Arc`).
pub struct Bytes(Store);

enum Store {
    Heap(Vec<u8>),
    /// The first `len` bytes of the mapping.
    Mapped(MmapMut, usize),
}

impl Deref for Bytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match &self.0 {
            Store::Heap(bytes) => bytes,
            Store::Mapped(map, len) => &map[..*len],
        }
    }
}

impl From<Vec<u8>> for Bytes {
    fn from(bytes: Vec<u8>) -> Bytes {
        Bytes(Store::Heap(bytes))
    }
}

impl std::fmt::Debug for Bytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Bytes({} bytes)", self.len())
    }
}

impl Bytes {
    /// Whether the bytes are in a mapping (rather than on the heap).
    pub fn is_mapped(&self) -> bool {
        matches!(self.0, Store::Mapped(..))
    }

    /// A `\n` at the end, unless there is one.
    pub fn end_line(&mut self) {
        if self.last() == Some(&b'\n') {
            return;
        }
        match &mut self.0 {
            Store::Heap(bytes) => bytes.push(b'\n'),
            Store::Mapped(map, len) if *len < map.len() => {
                map[*len] = b'\n';
                *len += 1;
            }
            Store::Mapped(map, len) => {
                let mut bytes = Vec::with_capacity(*len + 1);
                bytes.extend_from_slice(&map[..*len]);
                bytes.push(b'\n');
                self.0 = Store::Heap(bytes);
            }
        }
    }
}

/// A buffer being filled by reads: [`Filling::room`] for the next read,
/// [`Filling::filled`] with what it brought, [`Filling::finish`] at the
/// end. It starts on the heap and moves into a mapping when it must grow
/// past [`MAPPED_FROM`].
pub struct Filling {
    /// `Heap`: its length is the room, zeroed; `Mapped`: the whole mapping
    /// is room (an anonymous mapping reads as zeros).
    store: Store,
    filled: usize,
    mapped_from: usize,
}

impl Default for Filling {
    fn default() -> Filling {
        Filling::new()
    }
}

impl Filling {
    pub fn new() -> Filling {
        Filling::with_threshold(MAPPED_FROM)
    }

    /// Room for `expected` bytes and one more (a read must come back empty
    /// to say the end, and a host line may need its `\n`).
    pub fn expecting(expected: usize) -> Filling {
        let mut filling = Filling::new();
        let want = expected.saturating_add(1);
        if want >= filling.mapped_from {
            if let Some(map) = mapping(want) {
                filling.store = Store::Mapped(map, 0);
            }
        } else if let Store::Heap(bytes) = &mut filling.store {
            bytes.resize(want, 0);
        }
        filling
    }

    fn with_threshold(mapped_from: usize) -> Filling {
        Filling {
            store: Store::Heap(Vec::new()),
            filled: 0,
            mapped_from,
        }
    }

    /// Where the next read goes: never empty.
    pub fn room(&mut self) -> &mut [u8] {
        let filled = self.filled;
        let full = match &self.store {
            Store::Heap(bytes) => bytes.len() == filled,
            Store::Mapped(map, _) => map.len() == filled,
        };
        if full {
            self.grow();
        }
        match &mut self.store {
            Store::Heap(bytes) => &mut bytes[filled..],
            Store::Mapped(map, _) => &mut map[filled..],
        }
    }

    /// The last read brought `n` bytes (into the start of the room).
    pub fn filled(&mut self, n: usize) {
        self.filled += n;
    }

    pub fn finish(self) -> Bytes {
        Bytes(match self.store {
            Store::Heap(mut bytes) => {
                bytes.truncate(self.filled);
                Store::Heap(bytes)
            }
            Store::Mapped(map, _) => Store::Mapped(map, self.filled),
        })
    }

    /// More room: the heap grows a chunk; past the threshold, the bytes
    /// move to a mapping twice their size (twice again each time it is
    /// full). When no mapping can be made, the heap it is, from then on.
    fn grow(&mut self) {
        let filled = self.filled;
        let heap_next = filled + filled.clamp(READ_CHUNK, MAX_READ_CHUNK);
        if heap_next >= self.mapped_from {
            if let Some(mut map) = mapping(filled.saturating_mul(2).max(heap_next)) {
                map[..filled].copy_from_slice(&self.bytes()[..filled]);
                self.store = Store::Mapped(map, 0);
                return;
            }
            self.mapped_from = usize::MAX;
        }
        match &mut self.store {
            Store::Heap(bytes) => bytes.resize(heap_next, 0),
            Store::Mapped(map, _) => {
                let mut bytes = Vec::with_capacity(heap_next);
                bytes.extend_from_slice(&map[..filled]);
                bytes.resize(heap_next, 0);
                self.store = Store::Heap(bytes);
            }
        }
    }

    fn bytes(&self) -> &[u8] {
        match &self.store {
            Store::Heap(bytes) => bytes,
            Store::Mapped(map, _) => map,
        }
    }
}

/// An anonymous mapping of at least `len` bytes, a whole number of huge
/// pages, with huge pages asked for.
fn mapping(len: usize) -> Option<MmapMut> {
    let len = len.div_ceil(HUGE_PAGE).checked_mul(HUGE_PAGE)?;
    let map = match MmapOptions::new().len(len).map_anon() {
        Ok(map) => map,
        Err(err) => {
            tracing::debug!(%err, len, "no mapping for stdin; reading it into the heap");
            return None;
        }
    };
    // Only the speed depends on it: without huge pages (a kernel without
    // them, or set to `never`, or macOS) the mapping is an ordinary buffer.
    if let Err(err) = crate::platform::advise_huge_pages(&map) {
        tracing::debug!(%err, "no huge pages for stdin");
    }
    Some(map)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fills `filling` with `data` in reads of at most `chunk` bytes.
    fn fill(mut filling: Filling, data: &[u8], chunk: usize) -> Bytes {
        let mut at = 0;
        while at < data.len() {
            let room = filling.room();
            assert!(!room.is_empty(), "`room` is empty");
            let n = room.len().min(chunk).min(data.len() - at);
            room[..n].copy_from_slice(&data[at..at + n]);
            filling.filled(n);
            at += n;
        }
        // The read that says the end still gets room.
        assert!(!filling.room().is_empty(), "`filling.room()` is empty");
        filling.finish()
    }

    fn data(len: usize) -> Vec<u8> {
        (0..len).map(|i| u8::try_from(i % 251).unwrap()).collect()
    }

    #[test]
    fn small_input_stays_on_the_heap() {
        let input = data(100_000);
        let bytes = fill(Filling::with_threshold(1 << 20), &input, 4096);
        assert!(!bytes.is_mapped());
        assert_eq!(&*bytes, &input[..]);
        let empty = fill(Filling::new(), b"", 1);
        assert!(empty.is_empty() && !empty.is_mapped());
    }

    #[test]
    fn a_buffer_moves_to_a_mapping_past_the_threshold_and_keeps_its_bytes() {
        // Reads of a pipe's size and odd sizes, across the move and across
        // the mapping's own growth (the input is several huge pages).
        for chunk in [65_536, 7_919, 1 << 22] {
            let input = data(5 * HUGE_PAGE + 12_345);
            let bytes = fill(Filling::new(), &input, chunk);
            assert!(bytes.is_mapped(), "chunk {chunk}");
            assert_eq!(bytes.len(), input.len());
            assert!(*bytes == input[..], "chunk {chunk}");
        }
        // Just below the threshold: the heap.
        let input = data(MAPPED_FROM - READ_CHUNK - MAX_READ_CHUNK);
        assert!(!fill(Filling::new(), &input, 65_536).is_mapped());
    }

    #[test]
    fn an_expected_size_is_mapped_from_the_threshold_and_growth_still_works() {
        let input = data(3 * HUGE_PAGE);
        let filling = Filling::expecting(input.len());
        assert!(matches!(filling.store, Store::Mapped(..)));
        let bytes = fill(filling, &input, 1 << 20);
        assert!(bytes.is_mapped() && *bytes == input[..]);
        // A file that grew after its size was taken.
        let bytes = fill(Filling::expecting(1000), &input, 65_536);
        assert_eq!(*bytes, input[..]);
        let bytes = fill(Filling::expecting(MAPPED_FROM), &input, 65_536);
        assert!(bytes.is_mapped() && *bytes == input[..]);
        let small = Filling::expecting(10);
        assert!(matches!(&small.store, Store::Heap(b) if b.len() == 11));
    }

    #[test]
    fn end_line_adds_one_newline_wherever_the_bytes_are() {
        let mut heap = Bytes::from(b"{}".to_vec());
        heap.end_line();
        heap.end_line();
        assert_eq!(&*heap, b"{}\n");
        // Room left in the mapping.
        let mut input = data(MAPPED_FROM + 1);
        *input.last_mut().unwrap() = b'}';
        let mut bytes = fill(Filling::new(), &input, 1 << 20);
        assert!(bytes.is_mapped());
        bytes.end_line();
        assert_eq!(bytes.len(), input.len() + 1);
        assert!(bytes[..input.len()] == input[..] && bytes.last() == Some(&b'\n'));
        // A mapping filled to its last byte: the bytes move to the heap.
        let mut map = mapping(1).unwrap();
        let len = map.len();
        map.fill(b'x');
        let mut bytes = Bytes(Store::Mapped(map, len));
        bytes.end_line();
        assert!(!bytes.is_mapped());
        assert_eq!(bytes.len(), len + 1);
        assert!(bytes[..len].iter().all(|&b| b == b'x') && bytes[len] == b'\n');
    }
}
