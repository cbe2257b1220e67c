// The text file of a set of backup codes: what it is, when it was made, one code a line.

export const backupCodesText = (codes: string[], email: string, madeAt: Date) =>
  [
    `Kontor backup codes for ${email}`,
    `Made ${madeAt.toISOString().slice(0, 16).replace('T', ' ')} UTC. Each code works once; making new ones ends these.`,
    '',
    ...codes,
    '',
  ].join('\n');

export const backupCodesFileName = (madeAt: Date) =>
  `kontor-backup-codes-${madeAt.toISOString().slice(0, 10)}.txt`;
