import iconv from 'iconv-lite';
import { StatementParseError } from './types.ts';

// Statement files arrive as bytes; this turns them into text for every format (CSV, OFX/QFX,
// CAMT). In order: a byte-order mark; an XML encoding declaration; the OFX 1.x SGML header
// (CHARSET / ENCODING); otherwise UTF-8, falling back to Windows-1252 when the bytes are not
// valid UTF-8. A declared single-byte charset whose bytes are in fact valid multi-byte UTF-8
// is read as UTF-8 (banks often write CHARSET:1252 above UTF-8 text; the other reading would
// turn "é" into "Ã©"). Decision record 0016.

export type DecodedStatement = {
  text: string;
  /** The encoding the text was read in (iconv-lite name, e.g. "utf-8", "windows-1252"). */
  encoding: string;
  /** What the file itself declared, when it declared something. */
  declared: string | null;
  /**
   * Bytes that were not text and were replaced with U+FFFD: a UTF-8 file with a few corrupt
   * bytes is read as UTF-8 (every other accent right) rather than as Windows-1252 (every
   * accent wrong). Absent when nothing was replaced.
   */
  replaced?: number;
};

const LATIN1_LABELS = new Set([
  'iso-8859-1',
  'iso8859-1',
  'latin1',
  'latin-1',
  'l1',
  'us-ascii',
  'ascii',
  'usascii',
  'cp1252',
  'windows-1252',
]);

const utf8 = new TextDecoder('utf-8', { fatal: true });

const isValidUtf8 = (bytes: Uint8Array) => {
  try {
    utf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
};

const hasNonAscii = (bytes: Uint8Array) => {
  for (let i = 0; i < bytes.length; i += 1) if (bytes[i]! > 0x7f) return true;
  return false;
};

/**
 * Multi-byte UTF-8 sequences and bytes that start none, in bytes that are not valid UTF-8.
 * Windows-1252 text almost never forms a valid sequence (an accented letter is followed by
 * ASCII), so a file with more valid sequences than stray bytes is UTF-8 with a few corrupt bytes.
 */
const utf8Evidence = (bytes: Uint8Array) => {
  let valid = 0;
  let invalid = 0;
  for (let i = 0; i < bytes.length; i += 1) {
    const b = bytes[i]!;
    if (b < 0x80) continue;
    const length = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    let ok = length > 0 && i + length <= bytes.length;
    for (let k = 1; ok && k < length; k += 1) {
      const c = bytes[i + k]!;
      ok = c >= 0x80 && c <= 0xbf;
    }
    if (ok) {
      const second = bytes[i + 1]!;
      // Overlong forms and surrogates are not UTF-8 (RFC 3629).
      if ((b === 0xe0 && second < 0xa0) || (b === 0xed && second > 0x9f)) ok = false;
      if ((b === 0xf0 && second < 0x90) || (b === 0xf4 && second > 0x8f)) ok = false;
    }
    if (ok) {
      valid += 1;
      i += length - 1;
    } else invalid += 1;
  }
  return { valid, invalid };
};

/**
 * Files padded at the end with NUL bytes (or ended by a DOS Ctrl-Z) hold text before the
 * padding: the padding is cut off, so such a file is not taken for a binary one.
 */
const withoutEndPadding = (bytes: Uint8Array) => {
  let end = bytes.length;
  let padded = false;
  while (end > 0) {
    const b = bytes[end - 1]!;
    if (b === 0 || b === 0x1a) padded = true;
    else if (b !== 0x0a && b !== 0x0d && b !== 0x20 && b !== 0x09) break;
    end -= 1;
  }
  return padded ? bytes.subarray(0, end) : bytes;
};

/** OFX 1.x CHARSET values and common aliases, to iconv-lite names. */
const ofxCharset = (charset: string | null, encoding: string | null): string | null => {
  const enc = (encoding ?? '').trim().toUpperCase();
  if (enc === 'UTF-8' || enc === 'UTF8' || enc === 'UNICODE') return 'utf-8';
  const cs = (charset ?? '').trim().toUpperCase();
  if (cs === '' || cs === 'NONE') return null;
  if (/^\d{3,4}$/.test(cs)) return `windows-${cs}`; // CHARSET:1252 is the Windows code page
  if (cs === 'CSUNICODE' || cs === 'UTF-8') return 'utf-8';
  const iso = /^(?:ISO[-_ ]?)?8859[-_ ]?(\d{1,2})$/.exec(cs);
  if (iso) return `iso-8859-${iso[1]}`;
  return cs.toLowerCase();
};

const declaredEncoding = (bytes: Uint8Array): { name: string; raw: string } | null => {
  // Declarations are ASCII; reading the head as latin1 keeps byte offsets and never fails.
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 2048)).toString('latin1');
  const xml = /^\s*<\?xml[^>]*?\bencoding\s*=\s*["']([A-Za-z0-9._:-]+)["']/.exec(head);
  if (xml) return { name: xml[1]!.toLowerCase(), raw: `XML encoding="${xml[1]}"` };
  if (/^\s*OFXHEADER\s*:/i.test(head)) {
    const charset = /^\s*CHARSET\s*:\s*(\S*)/im.exec(head)?.[1] ?? null;
    const encoding = /^\s*ENCODING\s*:\s*(\S*)/im.exec(head)?.[1] ?? null;
    const name = ofxCharset(charset, encoding);
    if (name) return { name, raw: `OFX ENCODING:${encoding ?? ''} CHARSET:${charset ?? ''}` };
  }
  return null;
};

/** Turns an uploaded statement's bytes into text; refuses (naming line 1) what is not text. */
export const decodeStatementBytes = (input: Uint8Array): DecodedStatement => {
  let bytes = input;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return {
      text: iconv.decode(Buffer.from(bytes.subarray(3)), 'utf-8'),
      encoding: 'utf-8',
      declared: 'BOM',
    };
  }
  if (bytes[0] === 0xff && bytes[1] === 0xfe) {
    return {
      text: iconv.decode(Buffer.from(bytes.subarray(2)), 'utf-16le'),
      encoding: 'utf-16le',
      declared: 'BOM',
    };
  }
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    return {
      text: iconv.decode(Buffer.from(bytes.subarray(2)), 'utf-16be'),
      encoding: 'utf-16be',
      declared: 'BOM',
    };
  }
  // UTF-16 without a mark: an XML or text file starting with an ASCII character and a zero byte.
  if (bytes.length >= 4 && bytes[0] !== 0 && bytes[1] === 0 && bytes[2] !== 0 && bytes[3] === 0) {
    return { text: iconv.decode(Buffer.from(bytes), 'utf-16le'), encoding: 'utf-16le', declared: null };
  }
  if (bytes.length >= 4 && bytes[0] === 0 && bytes[1] !== 0 && bytes[2] === 0 && bytes[3] !== 0) {
    return { text: iconv.decode(Buffer.from(bytes), 'utf-16be'), encoding: 'utf-16be', declared: null };
  }
  bytes = withoutEndPadding(bytes);
  const probe = bytes.subarray(0, 8192);
  if (probe.includes(0)) {
    throw new StatementParseError([
      {
        line: 1,
        reason:
          'this is not a text file (it holds binary data, like a PDF, a ZIP or a spreadsheet); export the statement as CSV, OFX/QFX or CAMT XML',
      },
    ]);
  }
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  // A UTF-16/32 declaration over bytes without any zero byte cannot be true: the file was
  // written in an ASCII-compatible encoding (XML 1.0 appendix F reads the first bytes so).
  const stated = declaredEncoding(bytes);
  const declared = stated && /^(utf-?16|utf-?32|ucs-?[24]|unicode)/.test(stated.name) ? null : stated;
  const validUtf8 = isValidUtf8(bytes);
  if (declared) {
    // As browsers do (WHATWG Encoding): Latin-1 and ASCII labels read as Windows-1252, its superset.
    const name = LATIN1_LABELS.has(declared.name)
      ? 'windows-1252'
      : declared.name === 'utf8'
        ? 'utf-8'
        : declared.name;
    if (!iconv.encodingExists(name)) {
      throw new StatementParseError([
        { line: 1, reason: `the file declares the character set "${declared.name}", which cannot be read` },
      ]);
    }
    const singleByte = name !== 'utf-8' && !name.startsWith('utf-16') && !name.startsWith('ucs');
    // A UTF-8 declaration over bytes that are not UTF-8, or a single-byte one over real UTF-8:
    // the bytes win, as described above.
    if (name === 'utf-8' && !validUtf8) {
      return { text: iconv.decode(buffer, 'windows-1252'), encoding: 'windows-1252', declared: declared.raw };
    }
    if (singleByte && validUtf8 && hasNonAscii(bytes)) {
      return { text: iconv.decode(buffer, 'utf-8'), encoding: 'utf-8', declared: declared.raw };
    }
    return { text: iconv.decode(buffer, name), encoding: name, declared: declared.raw };
  }
  if (validUtf8) return { text: iconv.decode(buffer, 'utf-8'), encoding: 'utf-8', declared: null };
  const evidence = utf8Evidence(bytes);
  if (evidence.valid > evidence.invalid) {
    return {
      text: iconv.decode(buffer, 'utf-8'),
      encoding: 'utf-8',
      declared: null,
      replaced: evidence.invalid,
    };
  }
  return { text: iconv.decode(buffer, 'windows-1252'), encoding: 'windows-1252', declared: null };
};
