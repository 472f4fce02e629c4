// The test host: ext-apps' own host-side bridge (AppBridge) hands the view a real tool result, as a host would.
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";

window.hostLog = [];
window.startHost = async function (viewHtml, toolArguments, toolResult, theme) {
  const iframe = document.createElement("iframe");
  iframe.sandbox = "allow-scripts";
  iframe.style.width = "900px";
  iframe.style.height = "1400px";
  iframe.style.border = "0";
  document.body.appendChild(iframe);
  const bridge = new AppBridge(null, { name: "result-view-test-host", version: "1.0.0" }, {},
      { hostContext: { theme, toolInfo: { tool: { name: "execute_code", inputSchema: { type: "object" } } } } });
  const initialized = new Promise((resolve) => { bridge.oninitialized = resolve; });
  // As a host does: the frame takes the height the view reports.
  bridge.onsizechange = (size) => {
    window.hostLog.push(["size", size]);
    if (size && size.height) iframe.style.height = size.height + "px";
  };
  // Listening before the view loads, so that its first message (ui/initialize) is not missed.
  await bridge.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
  iframe.srcdoc = viewHtml;
  await initialized;
  window.hostLog.push(["initialized"]);
  await bridge.sendToolInput({ arguments: toolArguments });
  await bridge.sendToolResult(toolResult);
  window.hostLog.push(["result sent"]);
  return true;
};
