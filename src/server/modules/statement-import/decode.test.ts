import iconv from 'iconv-lite';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeStatementBytes } from './decode.ts';
import { parseCamtFile } from './camt.ts';
import { parseOfxFile } from './ofx.ts';
import { statementErrorsOf } from '../../testing/statements.ts';

// Bytes to text for every statement format, and the OFX/CAMT rules that depend on reading
// the file exactly (issue 12 §1–3).

const ofxHeader = (charset: string, encoding = 'USASCII') =>
  `OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\nSECURITY:NONE\nENCODING:${encoding}\nCHARSET:${charset}\nCOMPRESSION:NONE\nOLDFILEUID:NONE\nNEWFILEUID:NONE\n\n`;

const ofxBody = (trn: string, extra = '') =>
  `<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>EUR\n<BANKACCTFROM><ACCTID>1</BANKACCTFROM>\n<BANKTRANLIST>\n${trn}\n</BANKTRANLIST>${extra}</STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n`;

describe('decodeStatementBytes', () => {
  const text = 'Café Müller – 5 €';
  it('follows the BOM, then the XML declaration, then the OFX header', () => {
    expect(
      decodeStatementBytes(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)])),
    ).toMatchObject({
      text,
      encoding: 'utf-8',
    });
    expect(
      decodeStatementBytes(Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(text, 'utf-16le')])).text,
    ).toBe(text);
    const xml = '<?xml version="1.0" encoding="ISO-8859-15"?><a>Café Müller 5 €</a>';
    expect(decodeStatementBytes(iconv.encode(xml, 'iso-8859-15'))).toMatchObject({
      text: xml,
      encoding: 'iso-8859-15',
    });
    const ofx = `${ofxHeader('1252')}<OFX>${text}</OFX>`;
    expect(decodeStatementBytes(iconv.encode(ofx, 'windows-1252'))).toMatchObject({
      text: ofx,
      encoding: 'windows-1252',
    });
  });

  it('reads ISO-8859-1 labels as Windows-1252, as browsers do', () => {
    const ofx = `${ofxHeader('ISO-8859-1')}<OFX>Prépayée – ok</OFX>`;
    expect(decodeStatementBytes(iconv.encode(ofx, 'windows-1252')).text).toBe(ofx);
  });

  it('reads UTF-8 without a label, and falls back to Windows-1252 when the bytes are not UTF-8', () => {
    expect(decodeStatementBytes(Buffer.from(`a;${text}`))).toMatchObject({
      text: `a;${text}`,
      encoding: 'utf-8',
    });
    expect(decodeStatementBytes(iconv.encode(`a;${text}`, 'windows-1252'))).toMatchObject({
      text: `a;${text}`,
      encoding: 'windows-1252',
    });
  });

  it('believes the bytes over a label they disprove', () => {
    // CHARSET:1252 above real UTF-8 text.
    const ofx = `${ofxHeader('1252')}<OFX>${text}</OFX>`;
    expect(decodeStatementBytes(Buffer.from(ofx)).text).toBe(ofx);
    // encoding="utf-16" on a one-byte file.
    const xml = `<?xml version="1.0" encoding="utf-16"?><a>${text}</a>`;
    expect(decodeStatementBytes(Buffer.from(xml)).text).toBe(xml);
  });

  it('refuses binary files and unknown character sets on line 1', () => {
    expect(statementErrorsOf(() => decodeStatementBytes(Buffer.from('PK\u0003\u0004\0\0zip')))[0]).toEqual({
      line: 1,
      reason: expect.stringMatching(/not a text file/),
    });
    expect(
      statementErrorsOf(() =>
        decodeStatementBytes(Buffer.from('<?xml version="1.0" encoding="x-klingon"?><a/>')),
      )[0],
    ).toEqual({
      line: 1,
      reason: expect.stringMatching(/x-klingon/),
    });
  });
});

describe('OFX exactness', () => {
  const trn = (amount: string, name = 'SHOP') =>
    `<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20261102<TRNAMT>${amount}<FITID>1<NAME>${name}</STMTTRN>`;
  it('accepts zeros past the cents and refuses lost cents with line and value', () => {
    expect(parseOfxFile(ofxBody(trn('-30.000')), 2).statements[0]!.rows[0]!.amount).toBe(-3000);
    expect(parseOfxFile(ofxBody(trn('-3,77000')), 2).statements[0]!.rows[0]!.amount).toBe(-377);
    // Thousands grouped with the other mark, the decimal mark last.
    expect(parseOfxFile(ofxBody(trn('-1,234.56')), 2).statements[0]!.rows[0]!.amount).toBe(-123456);
    expect(parseOfxFile(ofxBody(trn('1.234.567,80')), 2).statements[0]!.rows[0]!.amount).toBe(123456780);
    expect(statementErrorsOf(() => parseOfxFile(ofxBody(trn('1.234.56')), 2))[0]!.reason).toMatch(
      /not an amount/,
    );
    expect(statementErrorsOf(() => parseOfxFile(ofxBody(trn('-3.775')), 2))).toEqual([
      { line: 4, reason: expect.stringMatching(/"-3\.775" has more decimals than EUR allows \(2\)/) },
    ]);
  });

  it('does not read transactions inside comments, and refuses a comment that never ends', () => {
    const commented = ofxBody(`${trn('-1.00')}\n<!-- ${trn('-999.00', 'HIDDEN')} -->\n${trn('-2.00')}`);
    expect(parseOfxFile(commented, 2).statements[0]!.rows.map((r) => r.amount)).toEqual([-100, -200]);
    expect(
      statementErrorsOf(() => parseOfxFile(ofxBody(`${trn('-1.00')}\n<!-- ${trn('-2.00')}`), 2))[0],
    ).toEqual({
      line: 5,
      reason: expect.stringMatching(/never closed/),
    });
  });

  it('refuses a character reference beyond Unicode with its line, never throwing anything else', () => {
    expect(statementErrorsOf(() => parseOfxFile(ofxBody(trn('-1.00', 'A&#x110000;B')), 2))).toEqual([
      { line: 4, reason: 'the character reference &#x110000; names no Unicode character' },
    ]);
    expect(parseOfxFile(ofxBody(trn('-1.00', 'Caf&#233; &amp; Co')), 2).statements[0]!.rows[0]!.payee).toBe(
      'Café & Co',
    );
  });
});

describe('CAMT', () => {
  const doc = (entries: string, root = 'BkToCstmrStmt', item = 'Stmt') => `<?xml version="1.0"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02">
<${root}><GrpHdr><MsgId>1</MsgId></GrpHdr>
<${item}><Id>1</Id><Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy></Acct>
${entries}
</${item}></${root}></Document>`;
  const entry = (amount: string, ind: string, extra = '') =>
    `<Ntry><Amt Ccy="EUR">${amount}</Amt><CdtDbtInd>${ind}</CdtDbtInd>${extra}<Sts>BOOK</Sts><BookgDt><Dt>2026-11-02</Dt></BookgDt></Ntry>`;

  it('signs an entry by CdtDbtInd alone; RvslInd does not flip it', () => {
    const rows = parseCamtFile(
      doc(
        `${entry('10.00', 'DBIT', '<RvslInd>true</RvslInd>')}\n${entry('4.00', 'CRDT', '<RvslInd>true</RvslInd>')}`,
      ),
      2,
    ).statements[0]!.rows;
    expect(rows.map((r) => r.amount)).toEqual([-1000, 400]);
  });

  it('reads camt.052 reports and camt.054 notifications alike', () => {
    for (const [root, item] of [
      ['BkToCstmrAcctRpt', 'Rpt'],
      ['BkToCstmrDbtCdtNtfctn', 'Ntfctn'],
    ] as const) {
      const file = parseCamtFile(doc(entry('1.50', 'CRDT'), root, item), 2);
      expect(file.statements[0]!.rows.map((r) => r.amount)).toEqual([150]);
    }
  });

  it('refuses cents that would be lost, naming the entry, and negative amounts', () => {
    expect(statementErrorsOf(() => parseCamtFile(doc(`\n${entry('1.005', 'CRDT')}`), 2))[0]).toEqual({
      line: 6,
      reason: expect.stringMatching(/"1\.005" has more decimals/),
    });
    expect(statementErrorsOf(() => parseCamtFile(doc(entry('-1.00', 'CRDT')), 2))[0]!.reason).toMatch(
      /negative/,
    );
  });
});

describe('CAMT safety', () => {
  it('refuses a DTD that declares entities, naming its line', () => {
    const bomb = `<?xml version="1.0"?>\n<!DOCTYPE Document [\n<!ENTITY a "aaaaaaaaaa">\n<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">\n]>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt><Ntry>&b;</Ntry></Stmt></BkToCstmrStmt></Document>`;
    expect(statementErrorsOf(() => parseCamtFile(bomb, 2))).toEqual([
      { line: 3, reason: expect.stringMatching(/<!ENTITY>/) },
    ]);
  });
});

describe('OFX as banks write it', () => {
  it('reads transactions whose </STMTTRN> is left out, and lines ended by a lone CR', () => {
    const body = ofxBody(
      '<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20261102<TRNAMT>-1.00<FITID>1<NAME>A\n<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20261103<TRNAMT>-2.00<FITID>2<NAME>B',
    ).replace(/\n/g, '\r');
    const rows = parseOfxFile(body, 2).statements[0]!.rows;
    expect(rows.map((r) => [r.line, r.amount, r.payee])).toEqual([
      [4, -100, 'A'],
      [5, -200, 'B'],
    ]);
  });
});

describe('decoding checked against other public files (2026-11-28)', () => {
  const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));

  it('cuts NUL padding (and a DOS Ctrl-Z) off the end instead of calling the file binary', () => {
    const decoded = decodeStatementBytes(fixture('nul-padded.csv'));
    expect(decoded.encoding).toBe('utf-8');
    expect(decoded.text).toBe(
      'Datum;Empfänger;Betrag\n02.11.2026;Bäckerei Özdemir;-3,80\n03.11.2026;Gehalt November;2450,00',
    );
    expect(decodeStatementBytes(Buffer.from('a;b\n1;2\r\n\u001a')).text).toBe('a;b\n1;2');
    // A NUL inside the text is still binary.
    expect(statementErrorsOf(() => decodeStatementBytes(Buffer.from('a;b\n1\u0000;2\n')))[0]).toMatchObject({
      line: 1,
      reason: expect.stringMatching(/not a text file/),
    });
  });

  it('reads UTF-8 with one corrupt byte as UTF-8, not every accent as Windows-1252', () => {
    const decoded = decodeStatementBytes(fixture('utf8-one-bad-byte.csv'));
    expect(decoded).toMatchObject({ encoding: 'utf-8', replaced: 1 });
    expect(decoded.text).toContain('Crème brûlée Café');
    expect(decoded.text).toContain('Jos\ufffd Muñoz');
    // Real Windows-1252 (accents followed by ASCII) still reads as Windows-1252.
    const cp1252 = iconv.encode('Café Rémy;Müller;Größe – “quoted”', 'windows-1252');
    expect(decodeStatementBytes(cp1252)).toMatchObject({
      text: 'Café Rémy;Müller;Größe – “quoted”',
      encoding: 'windows-1252',
    });
  });
});
