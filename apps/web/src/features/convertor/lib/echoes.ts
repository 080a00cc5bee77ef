/**
 * The changes an editor gave the page that have not come back to it as its value yet.
 *
 * An editor keeps its own document and tells the page each change; the page keeps the text
 * and renders the editor again with it as `value`. The editor's effect that shows a value from
 * elsewhere (undo, redo, an upload, a tag from the toolbar) must not take one of its own
 * changes for one: after a burst of keys the page may render an earlier change while later
 * ones are already typed (effects can run after later keystrokes, as Preact's do), and showing
 * that value would drop the later keys. Every change sent and not yet seen back is an echo;
 * once one comes back, the ones before it are past.
 */
export class Echoes {
  private readonly sent: string[] = [];

  /** The editor told the page this text. */
  send(text: string): void {
    this.sent.push(text);
  }

  /**
   * Whether a value the page rendered is one of this editor's own changes coming back (then
   * the editor shows it already, or a later one). A value from elsewhere forgets them all.
   */
  isEcho(value: string): boolean {
    const at = this.sent.indexOf(value);
    if (at < 0) {
      this.sent.length = 0;
      return false;
    }
    this.sent.splice(0, at + 1);
    return true;
  }
}
