/** The monitoring settings of a child that a parent can loosen. */
export interface MonitoringSettings {
  keyloggingEnabled: boolean;
  screenshotsEnabled: boolean;
  screenshotsResolution: number;
  screenshotsFrequency: number;
  showSuspensionActivity: boolean;
}

/**
 * server-behaviour §3.1: what a save made less watchful, in words for the security feed
 * (`monitoringDecreased`). Empty when nothing decreased. A longer frequency interval means fewer
 * screenshots, so raising it is a decrease.
 */
export function monitoringDecreases(
  before: MonitoringSettings,
  after: MonitoringSettings,
): string[] {
  const decreases: string[] = [];
  if (before.keyloggingEnabled && !after.keyloggingEnabled) decreases.push('keylogging turned off');
  if (before.screenshotsEnabled && !after.screenshotsEnabled) {
    decreases.push('screenshots turned off');
  }
  if (after.screenshotsResolution < before.screenshotsResolution) {
    decreases.push(
      `screenshot resolution lowered from ${before.screenshotsResolution} to ${after.screenshotsResolution}`,
    );
  }
  if (after.screenshotsFrequency > before.screenshotsFrequency) {
    decreases.push(
      `screenshot interval raised from ${before.screenshotsFrequency} s to ${after.screenshotsFrequency} s`,
    );
  }
  if (before.showSuspensionActivity && !after.showSuspensionActivity) {
    decreases.push('suspension activity hidden');
  }
  return decreases;
}
