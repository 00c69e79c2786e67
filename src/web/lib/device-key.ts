/**
 * The device's proof for a self check-in (decision 45): a P-256 ECDSA key pair made once per
 * browser, whose private key cannot be exported, kept in IndexedDB (a CryptoKey is
 * structured-cloneable, so the browser stores the key itself, not its bytes). Each scan is signed
 * over `portal-checkin\n<subject>\n<signedAt>`, the subject being the token scanned, the code as
 * typed, or `pending`. Used after sign-in only: the sign-in page never loads it.
 */

export interface DeviceProof {
  /** The public key, WebCrypto's raw export (65 bytes), base64url. */
  deviceKey: string;
  /** ECDSA P-256 SHA-256, raw r||s (64 bytes), base64url. */
  signature: string;
  /** When it was signed, in milliseconds since the epoch. */
  signedAt: number;
}

const DATABASE = 'portal-device';
const STORE = 'keys';
const KEY_NAME = 'checkin';
const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256' } as const;

function base64url(bytes: ArrayBuffer): string {
  let binary = '';
  for (const byte of new Uint8Array(bytes)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** What the signature covers; the server builds the same text. */
export function signedText(subject: string, signedAt: number): string {
  return `portal-checkin\n${subject}\n${signedAt}`;
}

function openDatabase(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const opening = indexedDB.open(DATABASE, 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore(STORE);
    opening.onsuccess = () => resolve(opening.result);
    opening.onerror = () => reject(opening.error ?? new Error('IndexedDB did not open'));
  });
}

function requestOf<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
  });
}

/** The kept key pair, made and kept on first use. Two tabs at once may both make one: the last kept wins, as a new device would. */
async function keyPair(): Promise<CryptoKeyPair> {
  const database = await openDatabase();
  try {
    const kept = (await requestOf(database.transaction(STORE, 'readonly').objectStore(STORE).get(KEY_NAME))) as CryptoKeyPair | undefined;
    if (kept?.privateKey && kept.publicKey) return kept;
    // Only the private key is made non-extractable: the public one is sent with every scan.
    const made = await crypto.subtle.generateKey(ALGORITHM, false, ['sign', 'verify']);
    await requestOf(database.transaction(STORE, 'readwrite').objectStore(STORE).put(made, KEY_NAME));
    return made;
  } finally {
    database.close();
  }
}

/** Whether this browser can keep a key: WebCrypto (a secure context) and IndexedDB. */
export function canSign(): boolean {
  return typeof indexedDB !== 'undefined' && typeof crypto !== 'undefined' && crypto.subtle !== undefined;
}

/**
 * The device's signature of `subject` now, or undefined where the browser cannot keep a key (or
 * it fails): the scan is then sent without one, and the server flags it for faculty.
 */
export async function signCheckin(subject: string, now: () => number = Date.now): Promise<DeviceProof | undefined> {
  if (!canSign()) return undefined;
  try {
    const { privateKey, publicKey } = await keyPair();
    const signedAt = now();
    const signature = await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, privateKey, new TextEncoder().encode(signedText(subject, signedAt)));
    const raw = await crypto.subtle.exportKey('raw', publicKey);
    return { deviceKey: base64url(raw), signature: base64url(signature), signedAt };
  } catch {
    return undefined;
  }
}
