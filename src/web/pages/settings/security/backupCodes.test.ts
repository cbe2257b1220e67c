import { describe, expect, it } from 'vitest';
import { backupCodesFileName, backupCodesText } from './backupCodes.ts';

describe('backup codes file', () => {
  it('names the account and time and lists one code a line', () => {
    const at = new Date('2026-11-28T04:05:06Z');
    expect(backupCodesText(['aaaa-1111', 'bbbb-2222'], 'me@example.com', at)).toBe(
      'Kontor backup codes for me@example.com\nMade 2026-11-28 04:05 UTC. Each code works once; making new ones ends these.\n\naaaa-1111\nbbbb-2222\n',
    );
    expect(backupCodesFileName(at)).toBe('kontor-backup-codes-2026-11-28.txt');
  });
});
