// The package ships JavaScript only; engine/wasm-backend.ts states the shape it relies on.
declare module '@echogarden/espeak-ng-emscripten' {
  const init: () => Promise<unknown>;
  export default init;
}
