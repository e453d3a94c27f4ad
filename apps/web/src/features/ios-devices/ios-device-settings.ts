import type { DashboardInput } from '@keyward/contract/dashboard';
import type { GetIOSDeviceOutput, WebPolicy } from '@keyward/contract/shared';
import { canAddDomain, policyHasDomains } from '@keyward/domain/block-rules';
import { websiteDomain } from '@keyward/domain/keys';

// The iOS device page's settings (spec §2 'iOS device page', §5 'Block rules', §9 web policies):
// block groups on or off, the web content policy, and its domain list, saved together with
// 'Save settings' (UpdateIOSDevice). Domains are added one at a time; blank and duplicate domains
// are refused (the Add button is disabled for them). What is typed is read by the key wizard's
// address rules (issue 20): `https://Wikipedia.org/wiki/Cat` adds `wikipedia.org`, and what is
// not a website stays in the field with the wizard's words.

export type IosDeviceSettings = {
  enabledBlockGroups: string[];
  webPolicy: WebPolicy;
  webPolicyDomains: string[];
};

export type IosDeviceSettingsState = {
  /** As last saved (or loaded): Save settings stays off until the draft differs. */
  saved: IosDeviceSettings;
  draft: IosDeviceSettings;
  domainInput: string;
  /** Why the typed domain was not added; cleared by typing. */
  domainError?: string;
  isSaving: boolean;
};

export type IosDeviceSettingsEvent =
  | { type: 'blockGroupToggled'; groupId: string }
  | { type: 'webPolicyChosen'; policy: WebPolicy }
  | { type: 'domainInputChanged'; value: string }
  | { type: 'domainAdded' }
  | { type: 'domainRemoved'; domain: string }
  | { type: 'saveClicked' }
  | { type: 'saveSucceeded' }
  | { type: 'saveFailed' }
  | { type: 'changesDiscarded' };

/** The spec's order of web policies (§9), with the words the page shows. */
export const WEB_POLICIES: { policy: WebPolicy; label: string; description: string }[] = [
  {
    policy: 'blockAll',
    label: 'Block all websites',
    description: 'No website opens. Apps keep working unless a block rule stops them.',
  },
  {
    policy: 'blockAllExcept',
    label: 'Block all websites except these',
    description: 'Only the domains you list open, with their subdomains.',
  },
  {
    policy: 'blockAdult',
    label: 'Block adult websites',
    description: 'iOS limits adult content; every other website opens.',
  },
  {
    policy: 'blockAdultAnd',
    label: 'Block adult websites and these',
    description: 'iOS limits adult content, and the domains you list are blocked too.',
  },
  {
    policy: 'allowAll',
    label: 'Allow all websites',
    description: 'No website is blocked by the web policy.',
  },
];

export function settingsOf(device: GetIOSDeviceOutput): IosDeviceSettings {
  return {
    enabledBlockGroups: [...device.enabledBlockGroups],
    webPolicy: device.webPolicy,
    webPolicyDomains: [...device.webPolicyDomains],
  };
}

export function initialIosDeviceSettings(device: GetIOSDeviceOutput): IosDeviceSettingsState {
  const saved = settingsOf(device);
  return { saved, draft: saved, domainInput: '', isSaving: false };
}

const sameSet = (a: string[], b: string[]) =>
  a.length === b.length && a.every((item) => b.includes(item));

export function hasSettingsChanged(state: IosDeviceSettingsState): boolean {
  const { saved, draft } = state;
  return (
    saved.webPolicy !== draft.webPolicy ||
    !sameSet(saved.enabledBlockGroups, draft.enabledBlockGroups) ||
    saved.webPolicyDomains.join('\n') !== draft.webPolicyDomains.join('\n')
  );
}

export function canSaveSettings(state: IosDeviceSettingsState): boolean {
  return hasSettingsChanged(state) && !state.isSaving;
}

/** Spec §5: the Add button is disabled for a blank or an already listed domain. */
export function canAddDomainInput(state: IosDeviceSettingsState): boolean {
  return canAddDomain(state.draft.webPolicyDomains, state.domainInput);
}

/** The domain list is shown (and edited) only for the policies that use it. */
export function showsDomains(state: IosDeviceSettingsState): boolean {
  return policyHasDomains(state.draft.webPolicy);
}

export function toUpdateIosDeviceInput(
  deviceId: string,
  state: IosDeviceSettingsState,
): DashboardInput<'UpdateIOSDevice'> {
  return { deviceId, ...state.draft };
}

export function iosDeviceSettingsReducer(
  state: IosDeviceSettingsState,
  event: IosDeviceSettingsEvent,
): IosDeviceSettingsState {
  const draft = state.draft;
  switch (event.type) {
    case 'blockGroupToggled': {
      const groups = draft.enabledBlockGroups;
      const enabledBlockGroups = groups.includes(event.groupId)
        ? groups.filter((id) => id !== event.groupId)
        : [...groups, event.groupId];
      return { ...state, draft: { ...draft, enabledBlockGroups } };
    }
    case 'webPolicyChosen':
      return { ...state, draft: { ...draft, webPolicy: event.policy } };
    case 'domainInputChanged': {
      const { domainError: _, ...rest } = state;
      return { ...rest, domainInput: event.value };
    }
    case 'domainAdded': {
      if (!canAddDomainInput(state)) return state;
      const check = websiteDomain(state.domainInput);
      if (!check.ok) return { ...state, domainError: check.error };
      return {
        ...state,
        domainInput: '',
        draft: { ...draft, webPolicyDomains: [...draft.webPolicyDomains, check.domain] },
      };
    }
    case 'domainRemoved':
      return {
        ...state,
        draft: {
          ...draft,
          webPolicyDomains: draft.webPolicyDomains.filter((d) => d !== event.domain),
        },
      };
    case 'saveClicked':
      return canSaveSettings(state) ? { ...state, isSaving: true } : state;
    case 'saveSucceeded':
      return { ...state, isSaving: false, saved: state.draft };
    case 'saveFailed':
      return { ...state, isSaving: false };
    case 'changesDiscarded': {
      const { domainError: _, ...rest } = state;
      return { ...rest, draft: state.saved, domainInput: '' };
    }
  }
}
