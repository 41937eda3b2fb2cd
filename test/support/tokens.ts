/** HS256 tokens signed with WebCrypto alone (not with the library the server verifies them with). */
export const b64u = (bytes: ArrayBuffer | Uint8Array | string) => Buffer.from(typeof bytes === "string" ? bytes : new Uint8Array(bytes)).toString("base64url");

export async function hs256(payload: Record<string, unknown>, secret: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const input = `${b64u(JSON.stringify({ alg: "HS256", typ: "JWT" }))}.${b64u(JSON.stringify(payload))}`;
  return `${input}.${b64u(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(input)))}`;
}
