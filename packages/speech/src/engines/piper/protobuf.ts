/**
 * The protobuf wire format (https://protobuf.dev/programming-guides/encoding/), as much as
 * ONNX files need: writing messages, and reading a message's top-level fields.
 */

export type Bytes = Uint8Array;

export function varint(value: number | bigint): number[] {
  let v = BigInt.asUintN(64, BigInt(value));
  const out: number[] = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return out;
}

export function concatBytes(parts: (Bytes | number[])[]): Bytes {
  const total = parts.reduce((sum, p) => sum + p.length, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

export const intField = (field: number, value: number | bigint) =>
  concatBytes([varint(field << 3), varint(value)]);
export const bytesField = (field: number, value: Bytes) =>
  concatBytes([varint((field << 3) | 2), varint(value.length), value]);
export const stringField = (field: number, value: string) =>
  bytesField(field, new TextEncoder().encode(value));
export function floatField(field: number, value: number): Bytes {
  const data = new Uint8Array(4);
  new DataView(data.buffer).setFloat32(0, value, true);
  return concatBytes([varint((field << 3) | 5), data]);
}
export const message = (...fields: Bytes[]) => concatBytes(fields);

export interface RawField {
  field: number;
  wireType: number;
  /** Where the field's key starts and where the whole field ends. */
  start: number;
  end: number;
  /** The payload of a length-delimited field. */
  payload?: Bytes;
}

function readVarint(bytes: Bytes, at: number): { value: bigint; next: number } {
  let value = 0n;
  let shift = 0n;
  for (let i = at; i < bytes.length && shift < 70n; i++) {
    const byte = bytes[i] as number;
    value |= BigInt(byte & 0x7f) << shift;
    shift += 7n;
    if ((byte & 0x80) === 0) return { value, next: i + 1 };
  }
  throw new Error('truncated varint');
}

/** The top-level fields of a message; throws on bytes that are not protobuf. */
export function readFields(bytes: Bytes): RawField[] {
  const fields: RawField[] = [];
  let at = 0;
  while (at < bytes.length) {
    const start = at;
    const key = readVarint(bytes, at);
    at = key.next;
    const field = Number(key.value >> 3n);
    const wireType = Number(key.value & 7n);
    if (field === 0) throw new Error('field number 0');
    let payload: Bytes | undefined;
    if (wireType === 0) at = readVarint(bytes, at).next;
    else if (wireType === 1) at += 8;
    else if (wireType === 5) at += 4;
    else if (wireType === 2) {
      const length = readVarint(bytes, at);
      at = length.next + Number(length.value);
      payload = bytes.subarray(length.next, at);
    } else throw new Error(`unsupported wire type ${wireType}`);
    if (at > bytes.length) throw new Error('truncated field');
    fields.push({ field, wireType, start, end: at, ...(payload && { payload }) });
  }
  return fields;
}
