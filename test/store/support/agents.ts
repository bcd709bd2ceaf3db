// The echo agent of the store's shared suite, for the other tests that drive a store with it.
export { EchoModel, echoAgent, echoGraph, gate } from "@autograms/store/testing";
