import { useFirstRender } from '../../lib/first-render';
import { Fragment, type ReactNode } from 'react';

// Announcement text is written by the operator (`npm run announce`) as a little HTML. It is never
// inserted as HTML: it is parsed, and only plain text, line breaks, emphasis and http(s)/mailto
// links become React elements; anything else keeps its text and loses its markup.

const INLINE = { b: 'strong', strong: 'strong', i: 'em', em: 'em', u: 'u', code: 'code' } as const;

function isSafeHref(href: string | null): href is string {
  return href !== null && /^(https?:|mailto:)/i.test(href.trim());
}

function toNodes(nodes: NodeListOf<ChildNode> | ChildNode[], keyPrefix: string): ReactNode[] {
  return Array.from(nodes).map((node, index) => {
    const key = `${keyPrefix}.${index}`;
    if (node.nodeType === Node.TEXT_NODE) return node.textContent;
    if (node.nodeType !== Node.ELEMENT_NODE) return null;
    const element = node as Element;
    const tag = element.tagName.toLowerCase();
    const children = toNodes(element.childNodes, key);
    if (tag === 'br') return <br key={key} />;
    if (tag in INLINE) {
      const Tag = INLINE[tag as keyof typeof INLINE];
      return <Tag key={key}>{children}</Tag>;
    }
    if (tag === 'a') {
      const href = element.getAttribute('href');
      if (!isSafeHref(href)) return <Fragment key={key}>{children}</Fragment>;
      return (
        <a
          key={key}
          href={href.trim()}
          target="_blank"
          rel="noopener noreferrer"
          className="font-semibold underline"
        >
          {children}
        </a>
      );
    }
    if (tag === 'script' || tag === 'style') return null;
    return <Fragment key={key}>{children}</Fragment>;
  });
}

export function AnnouncementText({ html }: { html: string }) {
  // parsed by the browser only: a page rendered on the server shows it once hydrated (issue 30)
  if (useFirstRender()) return null;
  const document = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  return <>{toNodes(document.body.childNodes, 'a')}</>;
}
