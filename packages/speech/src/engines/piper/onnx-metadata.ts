import { bytesField, concatBytes, message, readFields, stringField } from './protobuf.js';

/**
 * ONNX `ModelProto.metadata_props` (field 14, StringStringEntryProto { key = 1; value = 2 }).
 * A model from Piper's catalogue keeps its settings in a separate .onnx.json; sherpa-onnx reads
 * them from the model's metadata instead, so the install command adds them, as sherpa-onnx's
 * own conversion does (scripts/piper/add_meta_data.py). Protobuf lets repeated fields be
 * appended at the end of a message, so the model's bytes are kept as they are.
 */

const METADATA_PROPS = 14;
const GRAPH = 7;

export function readMetadata(model: Uint8Array): Map<string, string> {
  const fields = readFields(model);
  if (!fields.some((f) => f.field === GRAPH && f.payload)) {
    throw new Error('not an ONNX model (no graph)');
  }
  const found = new Map<string, string>();
  const decoder = new TextDecoder();
  for (const f of fields) {
    if (f.field !== METADATA_PROPS || !f.payload) continue;
    let key = '';
    let value = '';
    for (const entry of readFields(f.payload)) {
      if (entry.field === 1 && entry.payload) key = decoder.decode(entry.payload);
      if (entry.field === 2 && entry.payload) value = decoder.decode(entry.payload);
    }
    found.set(key, value);
  }
  return found;
}

/** The model with the given metadata added where a key is not there yet. */
export function withMetadata(model: Uint8Array, entries: Record<string, string>): Uint8Array {
  const existing = readMetadata(model);
  const added = Object.entries(entries)
    .filter(([key]) => !existing.has(key))
    .map(([key, value]) =>
      bytesField(METADATA_PROPS, message(stringField(1, key), stringField(2, value))),
    );
  return added.length === 0 ? model : concatBytes([model, ...added]);
}
