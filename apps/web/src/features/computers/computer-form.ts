import type { DashboardInput } from '@keyward/contract/dashboard';
import type { Device, ReleaseChannel } from '@keyward/contract/shared';
import { compareVersions } from '@keyward/domain/releases';

export type ComputerForm = { name: string; releaseChannel: ReleaseChannel };

export function computerFormOf(computer: Device): ComputerForm {
  return { name: computer.name ?? '', releaseChannel: computer.releaseChannel };
}

/** Save is disabled unless the (trimmed) name or the release channel changed. */
export function hasComputerChanged(computer: Device, form: ComputerForm): boolean {
  return (
    form.name.trim() !== (computer.name ?? '').trim() ||
    form.releaseChannel !== computer.releaseChannel
  );
}

/** The name is trimmed and sent as undefined when empty (which clears the custom name). */
export function toSaveComputerInput(id: string, form: ComputerForm): DashboardInput<'SaveDevice'> {
  const name = form.name.trim();
  return { id, name: name === '' ? undefined : name, releaseChannel: form.releaseChannel };
}

export function isUpToDate(runningVersion: string, latestVersion: string): boolean {
  return compareVersions(runningVersion, latestVersion) >= 0;
}

/** The child using the computer right now: the first computer user that is not offline. */
export function onlineUser(computer: Device): Device['users'][number] | undefined {
  return computer.users.find((user) => user.status.case !== 'offline');
}
