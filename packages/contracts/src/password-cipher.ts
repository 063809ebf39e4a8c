import { cbc } from '@noble/ciphers/aes.js';

/*
 * The spec's "fixed symmetric scheme" for the login password: AES-128-CBC with a key and IV
 * that every client knows. It only keeps the password out of casual sight in logs and proxies;
 * real protection is HTTPS (docs/design.md section 6). Pure JS so it works outside secure contexts,
 * where WebCrypto is missing (in-app browsers on plain http).
 */
const KEY = new TextEncoder().encode('LineWatch#2026!k');
const IV = new TextEncoder().encode('LineWatch#2026iv');

const toBase64 = (bytes: Uint8Array): string => {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
};
const fromBase64 = (text: string): Uint8Array =>
  Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

export const encryptPassword = (plain: string): string =>
  toBase64(cbc(KEY, IV).encrypt(new TextEncoder().encode(plain)));

/** Returns null when the text is not a cipher text of this scheme. */
export const decryptPassword = (cipherText: string): string | null => {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(
      cbc(KEY, IV).decrypt(fromBase64(cipherText)),
    );
  } catch {
    return null;
  }
};
