// The mock of the service: start it in-process with startMock(), or from the command line with `npm run mock`.
export {
  BASE_PATH,
  FAULT_KINDS,
  type DeliveryAttempt,
  type FaultKind,
  type FaultRule,
  type LoggedFile,
  type LoggedRequest,
  type MockOptions,
  type MockServer,
  type MockStats,
  startMock,
  type Subscription,
  type WebhookEvent,
} from "./server.js";
export { sign as signDelivery } from "@paperoffice/sdk-runtime/webhooks";
