/** Scheduling for work the first paint does not need (browser only). */

type IdleWindow = Window & { requestIdleCallback?: (cb: () => void, options?: { timeout: number }) => number };

/** Resolves after the load event, once the browser is idle (or after `timeout` ms at most). */
export function afterLoadAndIdle(timeout = 2000): Promise<void> {
  const w = window as IdleWindow;
  return new Promise((resolve) => {
    const idle = () => {
      if (w.requestIdleCallback) w.requestIdleCallback(() => resolve(), { timeout });
      else setTimeout(resolve, 50);
    };
    if (document.readyState === "complete") idle();
    else w.addEventListener("load", idle, { once: true });
  });
}
