// An app that imports the plugin gets the kernel's API (`Injection`, `InjectionRules`, …) with it.
@_exported public import InjectionKernel
