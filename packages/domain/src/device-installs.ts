// Issue 32: what a parent can really install on each kind of device today, said the same way on the
// connection dialog, the setup card and the getting-started page. Keyward has no Mac or iOS app of
// its own: a Mac family was sent to a "Download the Mac app" page with no download.
//
// To add a way (for example the DNS profile for Macs and iPhones, being built in parallel), add an
// entry to INSTALL_OPTIONS: every screen that lists the options shows it.

export type InstallTarget = 'mac' | 'ios' | 'chrome';

export interface InstallOption {
  id: 'keywardForChrome' | 'referenceMacApp' | 'referenceIosApp';
  /** "Keyward for Chrome" */
  title: string;
  /** what it filters, in a parent's words */
  filters: string;
  /** what it does not do, or what it takes */
  limits: string;
  /** where its steps are on the getting-started page */
  guideAnchor: 'chrome' | 'mac-app' | 'ios-app';
}

const CHROME: InstallOption = {
  id: 'keywardForChrome',
  title: 'Keyward for Chrome',
  filters: 'Chrome, Edge or another Chromium browser, downloaded from this server',
  limits:
    'It filters that browser only: block other browsers, and install it by policy so it cannot be removed.',
  guideAnchor: 'chrome',
};

export const INSTALL_OPTIONS: Readonly<Record<InstallTarget, readonly InstallOption[]>> = {
  mac: [
    { ...CHROME, filters: 'Chrome (or Edge) on the Mac, downloaded from this server' },
    {
      id: 'referenceMacApp',
      title: 'The open-source Gertrude Mac app (2.0.4 to 2.7.5)',
      filters: 'every app and browser on the Mac',
      limits:
        'There is no download from Keyward: an administrator enters this server in the app’s Advanced screen (again after each restart), or builds the app with this server’s address.',
      guideAnchor: 'mac-app',
    },
  ],
  ios: [
    {
      id: 'referenceIosApp',
      title: 'The open-source Gertrude iOS app (1.5.0)',
      filters: 'the iPhone or iPad, through Screen Time',
      limits:
        'There is no App Store download for Keyward: it has to be built with Xcode, with this server’s address.',
      guideAnchor: 'ios-app',
    },
  ],
  chrome: [{ ...CHROME, filters: 'a Chromebook, or Chrome on a Windows or Linux computer' }],
};

/** "Keyward for Chrome: filters Chrome …. It filters that browser only: …" */
export function installOptionInWords(option: InstallOption): string {
  return `${option.title}: filters ${option.filters}. ${option.limits}`;
}
