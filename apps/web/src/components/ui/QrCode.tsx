import { encode } from 'uqr';

/**
 * A QR code drawn as one SVG path (uqr encodes; no canvas, no innerHTML). `label` names it for
 * screen readers, e.g. 'QR code for your authenticator app'.
 */
export function QrCode({
  value,
  label,
  size = 192,
}: {
  value: string;
  label: string;
  size?: number;
}) {
  const { data } = encode(value, { border: 2 });
  const cells = data.length;
  let path = '';
  data.forEach((row, y) => {
    row.forEach((on, x) => {
      if (on) path += `M${x} ${y}h1v1h-1z`;
    });
  });
  return (
    <svg
      role="img"
      aria-label={label}
      width={size}
      height={size}
      viewBox={`0 0 ${cells} ${cells}`}
      shapeRendering="crispEdges"
      className="rounded-lg bg-white ring-1 ring-slate-200"
    >
      <rect width={cells} height={cells} fill="#fff" />
      <path d={path} fill="#0f172a" />
    </svg>
  );
}
