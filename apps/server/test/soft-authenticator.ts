/**
 * A WebAuthn authenticator in software, for server tests: it makes a P-256 credential ("none" attestation) for the
 * options the server hands out, and signs sign-in challenges with it, as a platform authenticator would (user present
 * and verified, a counter that goes up). The browser test drives Chromium's own virtual authenticator instead.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

const b64u = (b: Uint8Array | Buffer | string) => Buffer.from(b).toString('base64url');
const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest();

const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

export class SoftAuthenticator {
  private counter = 0;
  private key: KeyObject;
  private publicKey: KeyObject;
  readonly credentialId = randomBytes(16);
  userHandle = '';

  constructor(
    private origin: string,
    /** Whether it says it verified the person (a PIN, a fingerprint). */
    private verifies = true,
  ) {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.key = pair.privateKey;
    this.publicKey = pair.publicKey;
  }

  get id(): string {
    return b64u(this.credentialId);
  }

  private flags(extra = 0): number {
    return UP | (this.verifies ? UV : 0) | extra;
  }

  private authData(rpId: string, flags: number, attested?: Buffer): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(this.counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  }

  /** What navigator.credentials.create() answers (RegistrationResponseJSON) for the server's creation options. */
  create(options: any, origin = this.origin): Record<string, unknown> {
    this.userHandle = options.user.id;
    const jwk = this.publicKey.export({ format: 'jwk' }) as { x: string; y: string };
    const cose = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, new Uint8Array(Buffer.from(jwk.x, 'base64url'))],
      [-3, new Uint8Array(Buffer.from(jwk.y, 'base64url'))],
    ]);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, this.credentialId, Buffer.from(isoCBOR.encode(cose))]);
    const authData = this.authData(options.rp.id, this.flags(AT), attested);
    const attestation = isoCBOR.encode(
      new Map<string, string | Map<string, string> | Uint8Array>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', new Uint8Array(authData)],
      ]),
    );
    const clientData = JSON.stringify({ type: 'webauthn.create', challenge: options.challenge, origin, crossOrigin: false });
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: { clientDataJSON: b64u(clientData), attestationObject: b64u(attestation), transports: ['internal'] },
      clientExtensionResults: {},
    };
  }

  /** What navigator.credentials.get() answers (AuthenticationResponseJSON) for the server's request options. */
  get(options: any, opts: { origin?: string; rpId?: string } = {}): Record<string, unknown> {
    this.counter += 1;
    const authData = this.authData(opts.rpId ?? options.rpId, this.flags());
    const clientData = JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin: opts.origin ?? this.origin, crossOrigin: false });
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientData)]), this.key);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: { clientDataJSON: b64u(clientData), authenticatorData: b64u(authData), signature: b64u(signature), userHandle: this.userHandle },
      clientExtensionResults: {},
    };
  }
}
