import { describe, expect, it } from 'vitest';
import { decryptPassword, encryptPassword } from './password-cipher.ts';

describe('password cipher', () => {
  it('round-trips Chinese and ASCII passwords', () => {
    for (const plain of ['secret', '密码123', '']) {
      const sealed = encryptPassword(plain);
      expect(sealed).not.toContain(plain || '\u0000');
      expect(decryptPassword(sealed)).toBe(plain);
    }
  });

  it('refuses text that is not a cipher text', () => {
    expect(decryptPassword('not base64 !!')).toBeNull();
    expect(decryptPassword(btoa('short'))).toBeNull();
  });
});
