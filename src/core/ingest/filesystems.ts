/**
 * Whether a folder lives on a network or remote file system, where file watchers are not told about changes made on
 * other machines (NFS, SMB/CIFS, sshfs and other FUSE mounts, 9p, AFS). Known on Linux through statfs's type; elsewhere
 * (and when statfs fails) the answer is "no" and watching is tried as usual, with the error fallback behind it.
 */
import { statfs } from 'node:fs/promises';

const NETWORK_TYPES = new Map<number, string>([
  [0x6969, 'NFS'],
  [0x517b, 'SMB'],
  [0xff534d42, 'CIFS'],
  [0xfe534d42, 'SMB2'],
  [0x65735546, 'FUSE (sshfs or similar)'],
  [0x01021997, '9p'],
  [0x5346414f, 'AFS'],
  [0x564c, 'NCP'],
]);

/** The network file system's name, or undefined for a local one. */
export async function networkFileSystem(path: string): Promise<string | undefined> {
  if (process.platform !== 'linux') return undefined;
  const info = await statfs(path).catch(() => undefined);
  return info ? NETWORK_TYPES.get(info.type >>> 0) : undefined;
}
