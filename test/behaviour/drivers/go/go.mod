module example.com/behaviour-go-driver

go 1.22

require example.com/document-automation-service-sdk-go v0.0.0
