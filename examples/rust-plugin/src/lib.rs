//! rust-guard: a wasmhooks plugin in Rust with no crates and no allocator,
//! written against the raw ABI of docs/abi.md (Extism memory imports, three
//! exports, hand-written protobuf). It binds PreToolUse on `Bash` (fail closed)
//! and denies a command whose JSON input contains `rm -rf /`; every other
//! command gets `continue` (no opinion).
//!
//! Build: cargo build --release --target wasm32-unknown-unknown
//!   or:  rustc --edition 2021 --target wasm32-unknown-unknown --crate-type cdylib \
//!          -C opt-level=s -C panic=abort src/lib.rs -o rust-guard.wasm
#![no_std]

// ---- the Extism ABI: host memory blocks named by 64-bit offsets ----------

#[link(wasm_import_module = "extism:host/env")]
extern "C" {
    fn input_length() -> u64;
    fn input_load_u8(offset: u64) -> u32;
    fn alloc(length: u64) -> u64;
    fn store_u8(offset: u64, value: u32);
    fn output_set(offset: u64, length: u64);
    fn error_set(offset: u64);
}

/// Input beyond this many bytes is refused (the host caps input too).
const MAX_INPUT: usize = 64 * 1024;
static mut INPUT: [u8; MAX_INPUT] = [0; MAX_INPUT];

fn host_block(bytes: &[u8]) -> u64 {
    unsafe {
        let block = alloc(bytes.len() as u64);
        for (i, b) in bytes.iter().enumerate() {
            store_u8(block + i as u64, *b as u32);
        }
        block
    }
}

fn set_output(bytes: &[u8]) -> i32 {
    unsafe { output_set(host_block(bytes), bytes.len() as u64) };
    0
}

/// Fails the call: the host reports "Plugin-originated error: <message>" and applies the binding's failure policy.
fn fail(message: &[u8]) -> i32 {
    unsafe { error_set(host_block(message)) };
    1
}

fn read_input() -> Option<&'static [u8]> {
    unsafe {
        let n = input_length() as usize;
        if n > MAX_INPUT {
            return None;
        }
        let buf = &mut *core::ptr::addr_of_mut!(INPUT);
        for i in 0..n {
            buf[i] = input_load_u8(i as u64) as u8;
        }
        Some(&buf[..n])
    }
}

// ---- protobuf: just what this plugin needs ------------------------------

/// Writes into a caller's buffer; running past it panics, which traps (a fixed-size answer cannot).
struct Writer<'a> {
    buf: &'a mut [u8],
    len: usize,
}

impl<'a> Writer<'a> {
    fn new(buf: &'a mut [u8]) -> Writer<'a> {
        Writer { buf, len: 0 }
    }
    fn byte(&mut self, b: u8) {
        self.buf[self.len] = b;
        self.len += 1;
    }
    fn varint(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.byte((v as u8) | 0x80);
            v >>= 7;
        }
        self.byte(v as u8);
    }
    /// A length-delimited field (string or nested message).
    fn bytes(&mut self, field: u32, data: &[u8]) {
        self.varint(((field as u64) << 3) | 2);
        self.varint(data.len() as u64);
        for b in data {
            self.byte(*b);
        }
    }
    fn uint(&mut self, field: u32, v: u64) {
        self.varint((field as u64) << 3);
        self.varint(v);
    }
    fn done(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

fn read_varint(data: &[u8], pos: &mut usize) -> Option<u64> {
    let mut v: u64 = 0;
    for shift in (0..70).step_by(7) {
        let b = *data.get(*pos)?;
        *pos += 1;
        if shift < 64 {
            v |= ((b & 0x7f) as u64) << shift;
        }
        if b & 0x80 == 0 {
            return Some(v);
        }
    }
    None
}

/// The bytes of length-delimited field `field` in `msg` (the last one wins), skipping the rest; None on malformed input.
fn find_field(msg: &[u8], field: u64) -> Option<Option<&[u8]>> {
    let mut pos = 0;
    let mut found = None;
    while pos < msg.len() {
        let tag = read_varint(msg, &mut pos)?;
        match tag & 7 {
            0 => {
                read_varint(msg, &mut pos)?;
            }
            1 => pos = pos.checked_add(8).filter(|p| *p <= msg.len())?,
            5 => pos = pos.checked_add(4).filter(|p| *p <= msg.len())?,
            2 => {
                let n = read_varint(msg, &mut pos)? as usize;
                let end = pos.checked_add(n).filter(|e| *e <= msg.len())?;
                if tag >> 3 == field {
                    found = Some(&msg[pos..end]);
                }
                pos = end;
            }
            _ => return None,
        }
    }
    Some(found)
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

// ---- the three exports ---------------------------------------------------

const HOOK_EVENT_PRE_TOOL_USE: u64 = 6;
const FAILURE_POLICY_FAIL_CLOSED: u64 = 1;
const DECISION_CONTINUE: u64 = 1;
const DECISION_DENY: u64 = 3;

/// (empty) -> PluginInfo { name, version, protocol_version: 1, hooks: [PreToolUse on Bash, fail closed] }
#[no_mangle]
pub extern "C" fn describe() -> i32 {
    let mut binding_buf = [0u8; 64];
    let mut binding = Writer::new(&mut binding_buf);
    binding.uint(1, HOOK_EVENT_PRE_TOOL_USE);
    binding.bytes(2, b"Bash");
    binding.uint(3, FAILURE_POLICY_FAIL_CLOSED);
    let mut info_buf = [0u8; 256];
    let mut info = Writer::new(&mut info_buf);
    info.bytes(1, b"rust-guard");
    info.bytes(2, b"0.1.0");
    info.uint(3, 1);
    info.bytes(4, binding.done());
    info.bytes(7, b"Denies rm -rf / from the shell (Rust, no_std)");
    set_output(info.done())
}

/// HookRequest -> HookResponse. Field numbers from proto/wasmhooks/v1/hooks.proto:
/// HookRequest.tool_use = 12, ToolUsePayload.tool_input_json = 2.
#[no_mangle]
pub extern "C" fn hook() -> i32 {
    let input = match read_input() {
        Some(input) => input,
        None => return fail(b"rust-guard: input too large"),
    };
    let json = match find_field(input, 12).and_then(|tool_use| find_field(tool_use.unwrap_or(&[]), 2)) {
        Some(json) => json.unwrap_or(&[]),
        None => return fail(b"rust-guard: input is not a valid HookRequest"),
    };
    let mut out_buf = [0u8; 128];
    let mut out = Writer::new(&mut out_buf);
    // Substring search on the JSON text: an example, not a shell parser (see plugins/guard-shell for one).
    if contains(json, b"rm -rf /") {
        out.uint(1, DECISION_DENY);
        out.bytes(2, b"rust-guard: refusing rm -rf /");
    } else {
        out.uint(1, DECISION_CONTINUE);
    }
    set_output(out.done())
}

/// This plugin has no tools; the host never calls `tool` for it, but the export is part of the ABI.
#[no_mangle]
pub extern "C" fn tool() -> i32 {
    fail(b"rust-guard has no tools")
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    #[cfg(target_arch = "wasm32")]
    core::arch::wasm32::unreachable();
    // Only for type-checking on another target (the plugin is built for wasm32).
    #[cfg(not(target_arch = "wasm32"))]
    loop {}
}
