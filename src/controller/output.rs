//! The output buffer: replies gathered into large writes, the short ones
//! copied as fixed-size blocks.
//!
//! Most replies are a few bytes chosen by what the line was. Copying each
//! with its own length sends every copy down a different path of `memcpy`;
//! a [`Block`] is always copied whole, 64 bytes in one straight move, and
//! only its length differs.

use std::io::{self, Write};

/// The size of a [`Block`].
pub const BLOCK: usize = 64;

/// How many bytes are gathered before they are written.
pub const CAPACITY: usize = 64 * 1024;

/// A reply of at most [`BLOCK`] bytes, padded to a whole block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block {
    bytes: [u8; BLOCK],
    len: usize,
}

impl Block {
    /// The reply `text`, cut to [`BLOCK`] bytes (no reply kept in a block
    /// is longer).
    pub fn new(text: &[u8]) -> Block {
        let len = text.len().min(BLOCK);
        let mut bytes = [0; BLOCK];
        bytes[..len].copy_from_slice(&text[..len]);
        Block { bytes, len }
    }

    /// The reply.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

/// Replies on their way to `W`, written when the buffer fills or on
/// [`Output::flush`].
#[derive(Debug)]
pub struct Output<W: Write> {
    sink: W,
    // `CAPACITY` plus room for one whole block past it.
    buffer: Box<[u8]>,
    len: usize,
}

impl<W: Write> Output<W> {
    /// An empty buffer in front of `sink`, allocated here once.
    pub fn new(sink: W) -> Output<W> {
        Output {
            sink,
            buffer: vec![0; CAPACITY + BLOCK].into_boxed_slice(),
            len: 0,
        }
    }

    /// Queues `block`'s reply.
    #[inline]
    pub fn block(&mut self, block: &Block) -> io::Result<()> {
        if self.len > CAPACITY {
            self.write_buffer()?;
        }
        // `len <= CAPACITY` here, so the whole block fits.
        if let Some(room) = self.buffer.get_mut(self.len..self.len + BLOCK) {
            room.copy_from_slice(&block.bytes);
            self.len += block.len;
        }
        Ok(())
    }

    /// Queues `reply`, of any length.
    #[inline]
    pub fn bytes(&mut self, reply: &[u8]) -> io::Result<()> {
        if self.len + reply.len() > CAPACITY {
            self.write_buffer()?;
            if reply.len() > CAPACITY {
                return self.sink.write_all(reply);
            }
        }
        self.buffer[self.len..self.len + reply.len()].copy_from_slice(reply);
        self.len += reply.len();
        Ok(())
    }

    /// What the output is written to.
    pub const fn sink(&self) -> &W {
        &self.sink
    }

    /// Writes everything queued and flushes `W`.
    pub fn flush(&mut self) -> io::Result<()> {
        self.write_buffer()?;
        self.sink.flush()
    }

    fn write_buffer(&mut self) -> io::Result<()> {
        let queued = &self.buffer[..self.len];
        // Emptied first: after a failed write the session ends anyway.
        self.len = 0;
        self.sink.write_all(queued)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_and_bytes_come_out_in_order_across_many_writes() {
        let mut expected = Vec::new();
        let mut out = Output::new(Vec::new());
        let short = Block::new(b"Invalid coordinate\n");
        let long = vec![b'h'; 5000];
        for i in 0..10_000 {
            if i % 7 == 0 {
                out.bytes(&long).unwrap();
                expected.extend_from_slice(&long);
            } else {
                out.block(&short).unwrap();
                expected.extend_from_slice(short.as_bytes());
            }
        }
        let huge = vec![b'x'; 3 * CAPACITY];
        out.bytes(&huge).unwrap();
        expected.extend_from_slice(&huge);
        out.flush().unwrap();
        assert_eq!(out.sink, expected);
    }
}
