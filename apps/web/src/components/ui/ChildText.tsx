import { displayableChildText } from '@keyward/domain/child-text';
import { cx } from './cx';

/**
 * Text a child's device sent (a request comment, an address, an app or window name, a typed line),
 * as the characters it really holds (issue 19): it wraps anywhere, so one unbroken 2,000-character
 * comment stays inside its card; its bidi controls are dropped ("<RLO>gnp.exe" is not shown as
 * "exe.png"); and it is isolated from the words around it (<bdi>), so its direction never
 * reorders them.
 */
export function ChildText({ text, className }: { text: string; className?: string }) {
  return <bdi className={cx('wrap-anywhere', className)}>{displayableChildText(text)}</bdi>;
}
