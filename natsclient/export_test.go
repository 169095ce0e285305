package natsclient

// SignWithCreds is signWithCreds, for tests.
var SignWithCreds = signWithCreds
