import { INSTALL_OPTIONS, type InstallTarget } from '@keyward/domain/device-installs';
import { externalLinks } from '../../lib/links';

const GUIDES = {
  chrome: externalLinks.chromeGuide,
  'mac-app': externalLinks.macAppGuide,
  'ios-app': externalLinks.iosAppGuide,
} as const;

/**
 * Issue 32: what can really be installed on this kind of device (packages/domain device-installs),
 * each with what it filters, its limits, and the guide's steps.
 */
export function InstallOptions({ target }: { target: InstallTarget }) {
  return (
    <ul className="space-y-2 text-left text-sm text-slate-700">
      {INSTALL_OPTIONS[target].map((option) => (
        <li key={option.id} className="rounded-lg bg-slate-50 px-3 py-2">
          <span className="font-semibold text-slate-900">{option.title}</span>: filters{' '}
          {option.filters}. <span className="text-slate-600">{option.limits}</span>{' '}
          <a
            href={GUIDES[option.guideAnchor]}
            target="_blank"
            rel="noopener noreferrer"
            className="font-medium whitespace-nowrap text-violet-700 underline hover:text-violet-900"
          >
            How to install it
          </a>
        </li>
      ))}
    </ul>
  );
}
